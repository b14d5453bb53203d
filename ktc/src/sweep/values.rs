//! Grid values converted to `#[inputs]` parameter types.

use crate::Location;
use crate::registry::GridValue;

/// A type an `#[inputs]` parameter may have: built from one grid value.
pub trait FromGridValue: Sized {
    /// Converts, or says why not (out of range, wrong kind, unknown label).
    fn from_grid_value(value: GridValue) -> Result<Self, String>;
}

macro_rules! from_sweep_int {
    ($($t:ty),*) => {$(
        impl FromGridValue for $t {
            fn from_grid_value(value: GridValue) -> Result<Self, String> {
                match value {
                    GridValue::Int(v) => <$t>::try_from(v)
                        .map_err(|_| format!("{v} does not fit in {}", stringify!($t))),
                    GridValue::Label(l) => Err(format!("expected a number, found label `{l}`")),
                }
            }
        }
    )*};
}
from_sweep_int!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl FromGridValue for f64 {
    fn from_grid_value(value: GridValue) -> Result<Self, String> {
        match value {
            GridValue::Int(v) => Ok(v as f64),
            GridValue::Label(l) => Err(format!("expected a number, found label `{l}`")),
        }
    }
}

impl FromGridValue for f32 {
    fn from_grid_value(value: GridValue) -> Result<Self, String> {
        f64::from_grid_value(value).map(|v| v as f32)
    }
}

impl FromGridValue for Location {
    fn from_grid_value(value: GridValue) -> Result<Self, String> {
        match value {
            GridValue::Label("host") => Ok(Location::Host),
            GridValue::Label("device") => Ok(Location::Device),
            other => Err(format!("expected `host` or `device`, found {other:?}")),
        }
    }
}

impl FromGridValue for &'static str {
    fn from_grid_value(value: GridValue) -> Result<Self, String> {
        match value {
            GridValue::Label(l) => Ok(l),
            GridValue::Int(v) => Err(format!("expected a label, found {v}")),
        }
    }
}

impl FromGridValue for String {
    fn from_grid_value(value: GridValue) -> Result<Self, String> {
        <&'static str>::from_grid_value(value).map(str::to_owned)
    }
}
