//! Study switches: sets of on/off choices that a study measures one by one, and that the engine
//! always plays with all on.

/// Declares a set of study switches, `struct Name { field: type = value_in_FULL, ... }`.
///
/// With the crate's `study` feature the struct has public fields, set at run time, and
/// `Name::FULL` holds the given values. Without it the struct is zero-sized and `Name::FULL`
/// is its only value. Either way each field has an accessor, `name.field()`, that code reads
/// the switch with: without `study` it returns the `FULL` value as a constant, so the switch
/// folds away and normal builds carry only the engine's own setting (as the search parameters
/// fold to constants without the `tune` feature).
///
/// The `#[cfg(feature = "study")]` it expands to is checked in the crate that uses it, which
/// must have a `study` feature of its own (and enable `cutoff-ordering/study` with it).
#[doc(hidden)]
#[macro_export]
macro_rules! study_switches {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = $full:expr, )*
        }
    ) => {
        $(#[$meta])*
        #[cfg(feature = "study")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        $(#[$meta])*
        #[cfg(not(feature = "study"))]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis struct $name {
            _full: (),
        }

        impl $name {
            /// Every switch as the engine plays.
            #[cfg(feature = "study")]
            pub const FULL: $name = $name { $( $field: $full, )* };
            /// Every switch as the engine plays (the only value without the `study` feature).
            #[cfg(not(feature = "study"))]
            pub const FULL: $name = $name { _full: () };

            $(
                $(#[$fmeta])*
                #[inline(always)]
                pub const fn $field(self) -> $ty {
                    #[cfg(feature = "study")]
                    {
                        self.$field
                    }
                    #[cfg(not(feature = "study"))]
                    {
                        $full
                    }
                }
            )*
        }

        impl Default for $name {
            fn default() -> $name {
                $name::FULL
            }
        }
    };
}
