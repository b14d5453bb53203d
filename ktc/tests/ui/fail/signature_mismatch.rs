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

    #[variant]
    pub fn wrong_type(data: &[u32]) -> u64 {
        data.iter().map(|&d| d as u64).sum()
    }

    #[variant]
    pub fn wrong_return(data: &[u64]) -> u32 {
        data.len() as u32
    }

    #[variant]
    pub fn extra_param(data: &[u64], scale: u64) -> u64 {
        serial(data) * scale
    }
}

fn main() {}
