#[ktc::tunable(axes(n = data.len()), sweep(n = [10]))]
pub mod kernel {
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u64>,) {
        (vec![0; n],)
    }

    #[variant(reference)]
    pub fn serial(data: &[u64]) -> u64 {
        data.iter().sum()
    }

    #[variant(requires = opencl)]
    pub fn gpu(data: &[u64]) -> u64 {
        serial(data)
    }
}

fn main() {}
