//! Grid values converted to `#[inputs]` parameter types.

use crate::Location;
use crate::cuda::Unavailable;
use crate::registry::GridValue;

/// A type an `#[inputs]` parameter may have: built from one grid value.
pub trait FromGridValue: Sized {
    /// Converts, or says why not (out of range, wrong kind, unknown label).
    fn from_grid_value(value: GridValue) -> Result<Self, GridValueError>;
}

/// Why a grid value does not convert to an `#[inputs]` parameter's type. The sweep
/// skips such a point and records the reason in the entry's exclusions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridValueError {
    /// A label where the parameter is a number.
    #[error("expected a number, found label `{0}`")]
    ExpectedNumber(&'static str),
    /// A number where the parameter is a label.
    #[error("expected a label, found {0}")]
    ExpectedLabel(u64),
    /// A number outside the parameter type's range.
    #[error("{value} does not fit in {ty}")]
    OutOfRange {
        /// The grid value.
        value: u64,
        /// The parameter's type.
        ty: &'static str,
    },
    /// A residency that is neither `host` nor `device`.
    #[error("expected `host` or `device`, found {0:?}")]
    NotALocation(GridValue),
    /// `device` on a host where CUDA cannot be used.
    #[error("device-resident inputs need CUDA: {0}")]
    DeviceUnavailable(Unavailable),
    /// A user type's own refusal (see [`custom`](Self::custom)).
    #[error("{0}")]
    Custom(String),
}

impl GridValueError {
    /// The refusal of a user type's [`FromGridValue`], in its own words.
    pub fn custom(message: impl std::fmt::Display) -> Self {
        GridValueError::Custom(message.to_string())
    }
}

macro_rules! from_sweep_int {
    ($($t:ty),*) => {$(
        impl FromGridValue for $t {
            fn from_grid_value(value: GridValue) -> Result<Self, GridValueError> {
                match value {
                    GridValue::Int(v) => <$t>::try_from(v)
                        .map_err(|_| GridValueError::OutOfRange { value: v, ty: stringify!($t) }),
                    GridValue::Label(l) => Err(GridValueError::ExpectedNumber(l)),
                }
            }
        }
    )*};
}
from_sweep_int!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl FromGridValue for f64 {
    fn from_grid_value(value: GridValue) -> Result<Self, GridValueError> {
        match value {
            GridValue::Int(v) => Ok(v as f64),
            GridValue::Label(l) => Err(GridValueError::ExpectedNumber(l)),
        }
    }
}

impl FromGridValue for f32 {
    fn from_grid_value(value: GridValue) -> Result<Self, GridValueError> {
        f64::from_grid_value(value).map(|v| v as f32)
    }
}

impl FromGridValue for Location {
    fn from_grid_value(value: GridValue) -> Result<Self, GridValueError> {
        match value {
            GridValue::Label("host") => Ok(Location::Host),
            GridValue::Label("device") => Ok(Location::Device),
            other => Err(GridValueError::NotALocation(other)),
        }
    }
}

impl FromGridValue for &'static str {
    fn from_grid_value(value: GridValue) -> Result<Self, GridValueError> {
        match value {
            GridValue::Label(l) => Ok(l),
            GridValue::Int(v) => Err(GridValueError::ExpectedLabel(v)),
        }
    }
}

impl FromGridValue for String {
    fn from_grid_value(value: GridValue) -> Result<Self, GridValueError> {
        <&'static str>::from_grid_value(value).map(str::to_owned)
    }
}
