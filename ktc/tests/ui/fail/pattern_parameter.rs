#[ktc::tunable(axes(n = data.len()), sweep(n = [10]))]
pub mod kernel {
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u64>, (u64, u64)) {
        (vec![0; n], (1, 2))
    }

    #[variant(reference)]
    pub fn serial(data: &[u64], (a, b): (u64, u64)) -> u64 {
        data.iter().sum::<u64>() * a + b
    }
}

fn main() {}
