//! Grid values converted to `#[inputs]` parameter types.

use crate::Location;
use crate::registry::SweepValue;

/// A type an `#[inputs]` parameter may have: built from one grid value.
pub trait FromSweepValue: Sized {
    /// Converts, or says why not (out of range, wrong kind, unknown label).
    fn from_sweep_value(value: SweepValue) -> Result<Self, String>;
}

macro_rules! from_sweep_int {
    ($($t:ty),*) => {$(
        impl FromSweepValue for $t {
            fn from_sweep_value(value: SweepValue) -> Result<Self, String> {
                match value {
                    SweepValue::Num(v) => <$t>::try_from(v)
                        .map_err(|_| format!("{v} does not fit in {}", stringify!($t))),
                    SweepValue::Label(l) => Err(format!("expected a number, found label `{l}`")),
                }
            }
        }
    )*};
}
from_sweep_int!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl FromSweepValue for f64 {
    fn from_sweep_value(value: SweepValue) -> Result<Self, String> {
        match value {
            SweepValue::Num(v) => Ok(v as f64),
            SweepValue::Label(l) => Err(format!("expected a number, found label `{l}`")),
        }
    }
}

impl FromSweepValue for f32 {
    fn from_sweep_value(value: SweepValue) -> Result<Self, String> {
        f64::from_sweep_value(value).map(|v| v as f32)
    }
}

impl FromSweepValue for Location {
    fn from_sweep_value(value: SweepValue) -> Result<Self, String> {
        match value {
            SweepValue::Label("host") => Ok(Location::Host),
            SweepValue::Label("device") => Ok(Location::Device),
            other => Err(format!("expected `host` or `device`, found {other:?}")),
        }
    }
}

impl FromSweepValue for &'static str {
    fn from_sweep_value(value: SweepValue) -> Result<Self, String> {
        match value {
            SweepValue::Label(l) => Ok(l),
            SweepValue::Num(v) => Err(format!("expected a label, found {v}")),
        }
    }
}

impl FromSweepValue for String {
    fn from_sweep_value(value: SweepValue) -> Result<Self, String> {
        <&'static str>::from_sweep_value(value).map(str::to_owned)
    }
}
