#[ktc::tunable(axes(n = data.len()), sweep(n = [10]))]
pub mod kernel {
    #[variant(reference)]
    pub fn serial(data: &[u64]) -> u64 {
        data.iter().sum()
    }
}

fn main() {}
