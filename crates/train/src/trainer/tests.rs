//! The trainer's tests: a run stopped and resumed gives the network (and the losses) of a run
//! never stopped, the stop flag, the result's entry into the target, checkpoints of other
//! runs refused, and bad input refused with a typed error.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::*;
use crate::Position;
use crate::checkpoint::Checkpoint;
use crate::layout::parse_king_buckets;
use crate::test_data::EPD;

/// A unique scratch folder for a test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-train-{}-{name}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A scratch directory holding the test positions as `data.epd`, and that file's path.
fn scratch_with_data(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch_dir(name);
    let data = dir.join("data.epd");
    fs::write(&data, EPD).unwrap();
    (dir, data)
}

/// The configuration of a small run: N 16, batches of 2, 2 threads.
fn small_config(epochs: usize) -> TrainConfig {
    TrainConfig { hidden: 16, epochs, batch: 2, lr: 0.01, threads: Some(2), ..TrainConfig::default() }
}

/// A run of `config` trained and validated on `data`, with checkpoints to `checkpoint`.
fn small_run(config: TrainConfig, data: &Path, checkpoint: &Path) -> Trainer {
    Trainer::new(config).data(Source::file(data)).validation_data(Source::file(data)).checkpoint(checkpoint)
}

/// Runs `trainer`: the network file's bytes and the losses of a run that finished, `None`
/// for one that stopped.
fn finish(trainer: Trainer) -> Result<Option<(Vec<u8>, LossHistory)>, TrainError> {
    match trainer.run(|_| {})? {
        Outcome::Finished { network, history } => Ok(Some((network.to_bytes(), history))),
        Outcome::Stopped { .. } => Ok(None),
    }
}

#[test]
fn a_run_stopped_and_resumed_writes_the_same_network_as_one_never_stopped() {
    let (dir, data) = scratch_with_data("resume");
    let mut factorised = small_config(3);
    factorised.king_buckets = parse_king_buckets("4").unwrap();
    factorised.factorise = true;
    factorised.output_buckets = 2;
    let mut plain = small_config(3);
    plain.output_buckets = 8;
    plain.mirror = true;
    for (name, config) in [("plain", plain), ("factorised", factorised)] {
        let (full, split) = (dir.join(format!("{name}-full.ckpt")), dir.join(format!("{name}-split.ckpt")));
        let run = |checkpoint: &Path| small_run(config.clone(), &data, checkpoint);
        let (a, full_losses) = finish(run(&full)).unwrap().unwrap();
        // Stopped within the first epoch, then after step 5: the end of the first epoch with
        // mirroring (9 entries, 5 batches an epoch), within the second without (3 batches).
        assert!(finish(run(&split).stop_after_steps(2)).unwrap().is_none(), "{name}: a stopped run has no network");
        let first = Checkpoint::read(&split).unwrap();
        assert_eq!(first.step, 2);
        assert!(finish(run(&split).resume(&split).stop_after_steps(3)).unwrap().is_none());
        assert_eq!(Checkpoint::read(&split).unwrap().step, 5);
        let (b, split_losses) = finish(run(&split).resume(&split)).unwrap().unwrap();
        assert!(a == b, "{name}: the resumed run wrote another network");
        // The resumed run has the whole run's losses, each epoch's from the run that did it.
        assert_eq!(split_losses.to_csv(), full_losses.to_csv(), "{name}");
        assert_eq!(full_losses.epochs().len(), 3);
        // A different network would have shown: the runs train the weights away from the start.
        let start = Checkpoint::read(&full).unwrap();
        assert!(start.params != first.params && start.adam_t > first.adam_t);
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_flagged_run_stops_with_a_checkpoint_that_resumes_to_the_same_network() {
    let (dir, data) = scratch_with_data("flag");
    let mut config = small_config(2);
    config.mirror = true;
    let (full, split) = (dir.join("full.ckpt"), dir.join("split.ckpt"));
    let (a, _) = finish(small_run(config.clone(), &data, &full)).unwrap().unwrap();
    // The flag set in every step: each run ends after its first step with a checkpoint and no
    // network; the one that reaches the last step (10: 9 entries with mirroring, batches of
    // 2, 2 epochs), where the flag no longer stops it, finishes. Step 5 ends the first epoch.
    let flagged = |step: u64| {
        let trainer = small_run(config.clone(), &data, &split).stop_flag(Arc::new(AtomicBool::new(true)));
        if step == 1 { trainer } else { trainer.resume(&split) }
    };
    for step in 1..10 {
        let outcome = flagged(step).run(|_| {}).unwrap();
        assert!(
            matches!(outcome, Outcome::Stopped { step: s, total_steps: 10, flagged: true } if s == step),
            "{outcome:?}"
        );
        assert_eq!(Checkpoint::read(&split).unwrap().step, step);
    }
    let (b, _) = finish(flagged(10)).unwrap().unwrap();
    assert!(a == b, "the resumed runs wrote another network");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_result_enters_the_target_from_the_epoch_asked() {
    let (dir, data) = scratch_with_data("late-lambda");
    let net = |lambda: f32, from: usize| {
        let mut config = small_config(2);
        config.validation_lambda = Some(0.0);
        config.lambda = lambda;
        config.lambda_from_epoch = from;
        finish(small_run(config, &data, &dir.join("net.ckpt"))).unwrap().unwrap().0
    };
    let scores = net(0.0, 1);
    // From an epoch past the last one, the results never enter: the scores' network.
    assert!(net(1.0, 3) == scores);
    // From the second epoch, the first is the scores' and the second differs.
    let late = net(1.0, 2);
    assert!(late != scores);
    assert!(late != net(1.0, 1));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_checkpoint_of_another_run_or_a_damaged_one_is_refused() {
    let dir = scratch_dir("refuse");
    let data = dir.join("data.epd");
    fs::write(&data, EPD).unwrap();
    let other = dir.join("other.epd");
    fs::write(&other, &EPD[..EPD.len() - EPD.lines().last().unwrap().len() - 1]).unwrap();
    let checkpoint = dir.join("net.nnue.ckpt");
    let common = |seed: u64, data: &Path| {
        let config = TrainConfig { validation: 0.0, hidden: 16, epochs: 2, batch: 2, seed, ..TrainConfig::default() };
        Trainer::new(config).data(Source::file(data)).checkpoint(&checkpoint)
    };
    assert!(finish(common(1, &data).stop_after_steps(1)).unwrap().is_none());
    let refused = |trainer: Trainer| -> String {
        match trainer.run(|_| {}) {
            Err(TrainError::Checkpoint(e)) => e.to_string(),
            Err(e) => panic!("not a checkpoint error: {e}"),
            Ok(outcome) => panic!("taken: {outcome:?}"),
        }
    };
    // Another value, named with both.
    let message = refused(common(3, &data).resume(&checkpoint));
    assert!(message.contains("another run") && message.contains("seed: 3 here, 1 in the checkpoint"), "{message}");
    // Other data: the file of the same name with a line less.
    let renamed = dir.join("sub");
    fs::create_dir_all(&renamed).unwrap();
    let moved = renamed.join("data.epd");
    fs::copy(&other, &moved).unwrap();
    let message = refused(common(1, &moved).resume(&checkpoint));
    assert!(message.contains("data 0: data.epd (") && message.contains("5 positions) here"), "{message}");
    // An argument that only the checkpoint names is found before the data is read (here a
    // missing file, which would otherwise be the error).
    let decayed_checkpoint = dir.join("decayed.ckpt");
    let decayed = |decay: f32, data: &Path| {
        let config = TrainConfig {
            validation: 0.0,
            hidden: 16,
            epochs: 2,
            batch: 2,
            weight_decay: decay,
            ..TrainConfig::default()
        };
        Trainer::new(config).data(Source::file(data)).checkpoint(&decayed_checkpoint)
    };
    assert!(finish(decayed(0.01, &data).stop_after_steps(1)).unwrap().is_none());
    let message = refused(decayed(0.0, &dir.join("missing.epd")).resume(&decayed_checkpoint));
    assert!(message.contains("weight-decay: absent here"), "{message}");
    // A damaged file.
    let mut bytes = fs::read(&checkpoint).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    let damaged = dir.join("damaged.ckpt");
    fs::write(&damaged, &bytes).unwrap();
    let message = refused(common(1, &data).resume(&damaged));
    assert!(message.contains("damaged") && message.contains("checksum"), "{message}");
    fs::write(&damaged, &bytes[..middle]).unwrap();
    assert!(refused(common(1, &data).resume(&damaged)).contains("damaged"));
    fs::write(&damaged, b"not a checkpoint").unwrap();
    assert!(refused(common(1, &data).resume(&damaged)).contains("not a training checkpoint"));
    // The same run's checkpoint is taken.
    assert!(finish(common(1, &data).resume(&checkpoint)).unwrap().is_some());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn positions_in_memory_train_the_network_of_the_same_positions_in_a_file() {
    let (dir, data) = scratch_with_data("memory");
    let positions: Vec<Position> = EPD.lines().map(|line| Position::from_epd(line).unwrap()).collect();
    let memory = Source::positions("test positions", positions.iter().copied());
    let run = |source: Source| {
        let trainer = Trainer::new(small_config(2)).data(source.clone()).validation_data(source);
        finish(trainer).unwrap().unwrap()
    };
    let (from_file, file_losses) = run(Source::file(&data));
    let (from_memory, memory_losses) = run(memory);
    assert!(from_file == from_memory);
    assert_eq!(file_losses, memory_losses);
    // Whole games go to one side of the split: positions of one game held out together.
    let games = Source::games("games", positions.chunks(2).map(|game| game.to_vec()));
    let mut config = small_config(1);
    config.validation = 0.5;
    let mut loaded = (0, 0);
    Trainer::new(config)
        .data(games)
        .run(|event| {
            if let Event::Loaded { training, validation, .. } = *event {
                loaded = (training, validation);
            }
        })
        .unwrap();
    assert_eq!(loaded.0 + loaded.1, 6);
    assert!(loaded.0 % 2 == 0 && loaded.1 % 2 == 0, "{loaded:?}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_a_typed_error() {
    let dir = scratch_dir("bad-input");
    let run = |config: TrainConfig, source: Source| Trainer::new(config).data(source).run(|_| {});
    let epd = |name: &str, text: &str| {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        Source::file(path)
    };
    let good = epd("good.epd", EPD);
    let mut bad_config = small_config(1);
    bad_config.hidden = 24;
    assert!(matches!(run(bad_config, good.clone()), Err(TrainError::Config(_))));
    let mut mirrored = small_config(1);
    mirrored.mirror = true;
    mirrored.king_buckets = parse_king_buckets("8").unwrap();
    assert!(matches!(run(mirrored, good.clone()), Err(TrainError::Config(_))));
    assert!(matches!(run(small_config(1), Source::file(dir.join("missing.epd"))), Err(TrainError::Read { .. })));
    let line = epd("line.epd", "8/8/4k3/8/2R5/8/4K3/8 w - - c9 \"1-0\";\n8/8/8/8/8/8/8/8 w - - c9 \"1-0\";\n");
    match run(small_config(1), line) {
        Err(TrainError::Data { at, .. }) => assert!(at.ends_with("line.epd:2"), "{at}"),
        other => panic!("{other:?}"),
    }
    let binary = epd("binary.bin", "");
    fs::write(dir.join("binary.bin"), [0xff, 0xfe, 0x00, 0x81, b'\n']).unwrap();
    match run(small_config(1), binary) {
        Err(TrainError::Data { why, .. }) => assert!(why.contains("neither a game file nor EPD text"), "{why}"),
        other => panic!("{other:?}"),
    }
    let games = epd("games.bin", "CUTOFFGR\u{1}\0\0\0\u{7}");
    assert!(matches!(run(small_config(1), games), Err(TrainError::Data { .. })));
    assert!(matches!(run(small_config(1), epd("empty.epd", "# nothing\n")), Err(TrainError::NoTrainingPositions)));
    // Every position held out for validation leaves none to train on.
    let mut held_out = small_config(1);
    held_out.validation = 1.0;
    assert!(matches!(run(held_out, good.clone()), Err(TrainError::NoTrainingPositions)));
    let board = Position::from_epd("8/8/4k3/8/2R5/8/4K3/8 w - - c9 \"1-0\";").unwrap().board;
    let odd = Source::positions("odd", [Position { board, result: 0.25, score: None }]);
    assert!(matches!(run(small_config(1), odd), Err(TrainError::Data { .. })));
    let mut init = small_config(1);
    init.init = Some(dir.join("good.epd"));
    assert!(matches!(run(init, good), Err(TrainError::Init { .. })));
    fs::remove_dir_all(&dir).unwrap();
}
