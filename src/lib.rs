//! Workspace root package: owns examples/ and tests/.
