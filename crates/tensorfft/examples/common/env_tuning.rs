//! Tuning from environment variables, for the development examples: TFFT_MAX_PASS,
//! TFFT_TILE_BYTES, TFFT_ITEMS, TFFT_CLUSTER (blocks per cluster, 0: none), TFFT_PREFETCH,
//! TFFT_E, TFFT_B (transforms per block), TFFT_MAX_RADIX, TFFT_MIN_BLOCKS, TFFT_PERSISTENT, TFFT_DERIVED, TFFT_TW_AHEAD, TFFT_TC, TFFT_PAIRS, TFFT_IO (staged or direct), TFFT_PAIRED, TFFT_WARP, TFFT_TF32, TFFT_SHUFFLES, TFFT_SHORT_FIRST, TFFT_H2 (packed
//! half arithmetic) (0 or 1 for the switches), TFFT_TENSOR_STAGES, TFFT_XCH (exchange format: f16,
//! bf16, f32 or f64).

/// The tuning the environment asks for (the planner's choices for everything unset).
pub fn tuning_from_env() -> tensorfft::Tuning {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<usize>().ok());
    let switch = |k: &str| env(k).map(|v| v != 0);
    tensorfft::Tuning {
        max_pass_len: env("TFFT_MAX_PASS"),
        shortest_pass_first: switch("TFFT_SHORT_FIRST"),
        pass_tile_bytes: env("TFFT_TILE_BYTES"),
        items_per_tile: env("TFFT_ITEMS"),
        cluster_blocks: env("TFFT_CLUSTER"),
        prefetch: switch("TFFT_PREFETCH"),
        elements_per_thread: env("TFFT_E"),
        transforms_per_block: env("TFFT_B"),
        min_blocks_per_sm: env("TFFT_MIN_BLOCKS"),
        persistent: switch("TFFT_PERSISTENT"),
        derived_twiddles: switch("TFFT_DERIVED"),
        twiddles_ahead: switch("TFFT_TW_AHEAD"),
        tensor_cores: switch("TFFT_TC"),
        tensor_pairs: switch("TFFT_PAIRS"),
        max_radix: env("TFFT_MAX_RADIX"),
        paired_items: switch("TFFT_PAIRED"),
        warp_exchange: switch("TFFT_WARP"),
        tf32_split: switch("TFFT_TF32"),
        warp_shuffles: switch("TFFT_SHUFFLES"),
        tensor_stages: env("TFFT_TENSOR_STAGES"),
        half_arithmetic: switch("TFFT_H2"),
        exchange: std::env::var("TFFT_XCH")
            .ok()
            .and_then(|v| match v.as_str() {
                "f16" => Some(tensorfft::ExchangeFormat::F16),
                "bf16" => Some(tensorfft::ExchangeFormat::BF16),
                "f32" => Some(tensorfft::ExchangeFormat::F32),
                "f64" => Some(tensorfft::ExchangeFormat::F64),
                _ => None,
            }),
        io: std::env::var("TFFT_IO")
            .ok()
            .and_then(|v| match v.as_str() {
                "staged" => Some(tensorfft::IoMode::Staged),
                "direct" => Some(tensorfft::IoMode::Direct),
                _ => None,
            }),
        ..Default::default()
    }
}
