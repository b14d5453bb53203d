#[ktc::tunable(axes(n = data.len()), sweep(n = [10]))]
pub mod kernel;

fn main() {}
