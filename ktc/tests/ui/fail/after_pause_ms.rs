#[ktc::tunable(axes(n = data.len()), sweep(n = [10]), after_pause_ms = "20ms")]
pub mod not_a_number {
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u64>,) {
        (vec![0; n],)
    }

    #[variant(reference)]
    pub fn serial(data: &[u64]) -> u64 {
        data.iter().sum()
    }
}

#[ktc::tunable(axes(n = data.len()), sweep(n = [10]), after_pause_ms = 5000)]
pub mod out_of_range {
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u64>,) { super::not_a_number::inputs(n) }

    #[variant(reference)]
    pub fn serial(data: &[u64]) -> u64 { super::not_a_number::serial(data) }
}

fn main() {}
