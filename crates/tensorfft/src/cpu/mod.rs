//! CPU side: the reference executor of recipes, the radix DFTs it shares with the kernels, and the
//! f64 oracle.

pub mod oracle;
pub mod radix_dft;
pub mod reference;
pub mod split_dft;
pub mod tensor_dft;
pub mod warp_shuffle;
