//! sppark's NTT times on the H200, the standard GPU NTT of zero-knowledge provers, as measured
//! for this project (`../shared/anchors/sppark-ntt-h200.log`: one transform per call, device
//! time, BabyBear and Goldilocks, natural input, bit-reversed (NR) or natural (NN) output). `tfft
//! ntt bench` puts its one-transform rows beside them; other GPUs have no anchor.

/// (field, log2 N, orders, milliseconds).
const H200: &[(&str, u32, &str, f64)] = &[
    ("babybear", 10, "NR", 0.0062),
    ("babybear", 10, "NN", 0.0099),
    ("babybear", 12, "NR", 0.0098),
    ("babybear", 12, "NN", 0.0138),
    ("babybear", 14, "NR", 0.0107),
    ("babybear", 14, "NN", 0.0153),
    ("babybear", 16, "NR", 0.0113),
    ("babybear", 16, "NN", 0.0164),
    ("babybear", 18, "NR", 0.0143),
    ("babybear", 18, "NN", 0.0194),
    ("babybear", 20, "NR", 0.0252),
    ("babybear", 20, "NN", 0.0310),
    ("babybear", 22, "NR", 0.0640),
    ("babybear", 22, "NN", 0.0761),
    ("babybear", 24, "NR", 0.2219),
    ("babybear", 24, "NN", 0.2617),
    ("goldilocks", 10, "NR", 0.0075),
    ("goldilocks", 10, "NN", 0.0109),
    ("goldilocks", 12, "NR", 0.0107),
    ("goldilocks", 12, "NN", 0.0153),
    ("goldilocks", 14, "NR", 0.0116),
    ("goldilocks", 14, "NN", 0.0160),
    ("goldilocks", 16, "NR", 0.0125),
    ("goldilocks", 16, "NN", 0.0175),
    ("goldilocks", 18, "NR", 0.0172),
    ("goldilocks", 18, "NN", 0.0220),
    ("goldilocks", 20, "NR", 0.0477),
    ("goldilocks", 20, "NN", 0.0581),
    ("goldilocks", 22, "NR", 0.1549),
    ("goldilocks", 22, "NN", 0.1759),
    ("goldilocks", 24, "NR", 0.6086),
    ("goldilocks", 24, "NN", 0.7258),
];

/// sppark's time for one forward cyclic transform of `field` at 2^`log_n` with `orders` (`"NR"`
/// or `"NN"`) on `device`, where it was measured (an H200).
pub fn sppark_ms(device: &str, field: &str, log_n: u32, orders: &str) -> Option<f64> {
    if !device.contains("H200") {
        return None;
    }
    H200.iter()
        .find(|&&(f, l, o, _)| f == field && l == log_n && o == orders)
        .map(|&(_, _, _, ms)| ms)
}

#[cfg(test)]
mod tests {
    use super::sppark_ms;

    #[test]
    fn anchors_by_device_field_size_and_order() {
        assert_eq!(
            sppark_ms("NVIDIA H200", "goldilocks", 22, "NR"),
            Some(0.1549)
        );
        assert_eq!(sppark_ms("NVIDIA H200", "babybear", 24, "NN"), Some(0.2617));
        assert_eq!(
            sppark_ms("NVIDIA H100 80GB HBM3", "babybear", 24, "NR"),
            None
        );
        assert_eq!(sppark_ms("NVIDIA H200", "babybear", 23, "NR"), None);
        assert_eq!(sppark_ms("NVIDIA H200", "koalabear", 20, "NR"), None);
    }
}
