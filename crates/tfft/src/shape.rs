//! Transform shapes on the command line and in reports: `--shape 64x4096`, printed the same way.

/// Most dimensions a case may have (1D, 2D, 3D, as the library and cuFFT's baseline support).
pub const MAX_RANK: usize = 3;

/// Parses `4096`, `64x4096` or `16x256x1024` (also with `,` or `×` between the extents) into the
/// extents, slowest first. Every extent must be at least 1, at most [`MAX_RANK`] of them.
///
/// ```text
/// parse_shape("64x4096")     == Ok(vec![64, 4096])
/// parse_shape("2x2x2x2")     is an error (rank 4)
/// ```
pub fn parse_shape(s: &str) -> Result<Vec<usize>, String> {
    let dims = s
        .split(['x', 'X', ',', '×'])
        .map(|part| {
            let part = part.trim();
            part.parse::<usize>()
                .ok()
                .filter(|&d| d > 0)
                .ok_or_else(|| format!("{part:?} in shape {s:?} is not a positive integer"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if dims.len() > MAX_RANK {
        return Err(format!(
            "shape {s:?} has {} dimensions; at most {MAX_RANK} are supported",
            dims.len()
        ));
    }
    elements(&dims).ok_or_else(|| format!("shape {s:?} overflows"))?;
    Ok(dims)
}

/// `64x4096`: the extents joined by `x`, as `--shape` takes them.
///
/// ```text
/// shape_text(&[16, 256, 1024]) == "16x256x1024"
/// ```
pub fn shape_text(dims: &[usize]) -> String {
    dims.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

/// Elements of one transform (the product of the extents), `None` on overflow.
///
/// ```text
/// elements(&[64, 4096]) == Some(262144)
/// ```
pub fn elements(dims: &[usize]) -> Option<usize> {
    dims.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_one_to_three_extents() {
        assert_eq!(parse_shape("4096"), Ok(vec![4096]));
        assert_eq!(parse_shape("64x4096"), Ok(vec![64, 4096]));
        assert_eq!(parse_shape("16x256x1024"), Ok(vec![16, 256, 1024]));
        assert_eq!(parse_shape("8,16"), Ok(vec![8, 16]));
        assert_eq!(parse_shape("8×16"), Ok(vec![8, 16]));
    }

    #[test]
    fn refuses_bad_shapes() {
        for bad in [
            "",
            "0",
            "4x0",
            "x4",
            "4x",
            "2x2x2x2",
            "abc",
            "-4",
            "4294967296x4294967296",
        ] {
            assert!(parse_shape(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn prints_as_parsed() {
        assert_eq!(shape_text(&[64, 4096]), "64x4096");
        assert_eq!(parse_shape(&shape_text(&[2, 4, 8])), Ok(vec![2, 4, 8]));
    }
}
