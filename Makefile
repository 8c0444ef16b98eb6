# Builds the `cutoff` engine binary. OpenBench runs `make EXE=<path>` and then `<path> bench`.
#
#   make                     native build for this CPU (popcnt, BMI2/PEXT, AVX2 ...) -> ./cutoff
#   make EXE=/tmp/cutoff-ob  the same, written to /tmp/cutoff-ob
#   make portable            a build that runs on any CPU of the target architecture
#   make pgo                 the native build, optimised with a profile of `cutoff bench`
#                            (profile-guided; needs the llvm-profdata of rustc's LLVM) -> ./cutoff
#   make dist                release archives for Linux x86-64, one per level (x86-64, x86-64-v2,
#                            x86-64-v3, x86-64-v4) -> dist/, with each level's bench nps
#                            (DIST_FLAGS: more options of `cargo xtask dist`, e.g. --rounds 5)
#   make dist PGO=1          the same, each level this CPU runs built profile-guided
#
# EVALFILE=<path> embeds that network file instead of crates/uci/networks/default.nnue (OpenBench);
# the build fails if the file cannot be read. (Whether the engine uses it by default is UseNNUE's default.)
# The flags of the native build come from .cargo/config.toml; RUSTFLAGS replaces them.

EXE ?= cutoff
CARGO ?= cargo
EVALFILE ?=
# FEATURES=tune: the search parameters become UCI options (SPSA tuning).
FEATURES ?=
DIST_FLAGS ?=
# PGO=1: `make dist` ships profile-guided builds (`cargo xtask dist --pgo`).
PGO ?=
# The llvm-profdata that reads the profiles of this rustc: its LLVM major version must match
# (rustc 1.95 is LLVM 22; Debian's package llvm-22). scripts/pgo.sh finds one when unset.
PROFDATA ?=

ifeq ($(OS),Windows_NT)
ifeq ($(suffix $(EXE)),)
EXE := $(EXE).exe
endif
endif

.PHONY: all native portable pgo dist clean

all: native

# The network to embed, handed to crates/uci/build.rs.
export CUTOFF_EVALFILE := $(if $(EVALFILE),$(abspath $(EVALFILE)),)

native:
	$(CARGO) rustc --release --package cutoff --bin cutoff $(if $(FEATURES),--features $(FEATURES)) -- --emit link=$(abspath $(EXE))

# An empty RUSTFLAGS replaces the native flags of .cargo/config.toml: the compiler's baseline.
portable:
	RUSTFLAGS= $(CARGO) rustc --release --package cutoff --bin cutoff $(if $(FEATURES),--features $(FEATURES)) -- --emit link=$(abspath $(EXE))

# Profile-guided: an instrumented build runs `cutoff bench`, and the build that ships is
# optimised with that profile (scripts/pgo.sh). Without a matching llvm-profdata it says so in
# one line and makes the plain native build.
pgo:
	CARGO="$(CARGO)" FEATURES="$(FEATURES)" PROFDATA="$(PROFDATA)" scripts/pgo.sh $(abspath $(EXE))

# Each level is built with its own target-cpu (not this machine's); see `cargo xtask dist --help`.
dist:
	$(CARGO) xtask dist $(if $(PGO),--pgo) $(DIST_FLAGS)

clean:
	$(CARGO) clean
