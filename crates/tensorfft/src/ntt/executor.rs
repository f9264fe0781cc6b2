//! The CPU executor of NTT schedules: runs the passes of an [`NttSchedule`] as the GPU does
//! (same pass lengths, item geometry, local decimation in frequency or in time with the same root tables,
//! four-step twiddles and weights from the same high/low tables), so the planner's geometry is
//! tested on every CI run, bit for bit against [`super::naive_ntt`] / [`super::fast_ntt`].

use super::schedule::{NttPass, NttSchedule, WeightSide};
use super::spec::Order;
use super::tables::{pass_values, stage_roots, TableLayout};
use super::Modulus;
use crate::error::Result;
use crate::plan::schedule::Buffer;

/// Runs `schedule` on `data` (all transforms, values below their limb's modulus) out of place.
///
/// ```
/// use tensorfft::ntt::{executor::execute, fast_ntt, plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
/// use tensorfft::Direction;
/// let spec = NttSpec::new(BABY_BEAR, 1 << 14, NttKind::Negacyclic).unwrap()
///     .with_orders(Order::Natural, Order::BitReversed);
/// let s = plan_ntt_schedule(&NttBatch::new(spec), 4, Direction::Forward).unwrap();
/// let x: Vec<u64> = (0..1u64 << 14).map(|i| i * 7919 % BABY_BEAR).collect();
/// assert_eq!(execute(&s, &x).unwrap(), fast_ntt(&spec, Direction::Forward, &x).unwrap());
/// ```
pub fn execute(schedule: &NttSchedule, data: &[u64]) -> Result<Vec<u64>> {
    schedule.batch.validate(data)?;
    let len = data.len();
    let mut output = vec![0u64; len];
    let mut scratch = [vec![0u64; len], vec![0u64; len]];
    for (index, (src, dst)) in schedule.buffers(false).into_iter().enumerate() {
        let input: Vec<u64> = match src {
            Buffer::Input => data.to_vec(),
            Buffer::Output => output.clone(),
            Buffer::Scratch(k) => scratch[k as usize].clone(),
        };
        let target = match dst {
            Buffer::Output | Buffer::Input => &mut output,
            Buffer::Scratch(k) => &mut scratch[k as usize],
        };
        run_pass(schedule, index, &input, target);
    }
    Ok(output)
}

/// Coordinates of item `f` along the pass's dimensions (fastest first).
fn coordinates(pass: &NttPass, mut f: usize) -> Vec<usize> {
    pass.dims
        .iter()
        .map(|d| {
            let c = f % d.count;
            f /= d.count;
            c
        })
        .collect()
}

fn run_pass(schedule: &NttSchedule, index: usize, input: &[u64], output: &mut [u64]) {
    let pass = &schedule.passes[index];
    let layout = TableLayout::of(schedule, index);
    let side = schedule.weight_side(index);
    let limbs = schedule.batch.limb_count();
    let tables: Vec<Vec<u64>> = (0..limbs)
        .map(|l| pass_values(schedule, index, l))
        .collect();
    let len = pass.len;
    let mut buf = vec![0u64; len];
    let in_time = pass.in_time();
    // Slot twiddles: the thread and value slot that hold frequency k.
    let slot_of = (layout.twiddle_items > 0).then(|| frequency_slots(pass));
    for f in 0..pass.items() {
        let c = coordinates(pass, f);
        let transform = c[pass.transform_dim];
        let l = transform % limbs;
        let m = schedule.batch.spec(l).modulus();
        let t = &tables[l];
        let weight = |x: u64, i: usize| {
            let hi = t[layout.weight_hi + (i >> layout.weight_lo_bits)];
            let lo = t[layout.weight_lo + (i & ((1 << layout.weight_lo_bits) - 1))];
            m.mul(m.mul(x, hi), lo)
        };
        let base_in: usize = pass.dims.iter().zip(&c).map(|(d, &x)| d.in_offset(x)).sum();
        let base_out: usize = pass
            .dims
            .iter()
            .zip(&c)
            .map(|(d, &x)| d.out_offset(x))
            .sum();
        for r in 0..len {
            let s = pass.local_in.index(r, len);
            let mut x = input[base_in + r * pass.sample_in];
            if side == WeightSide::Input {
                let n: usize = s * pass.sample_in_weight
                    + pass
                        .dims
                        .iter()
                        .zip(&c)
                        .map(|(d, &x)| d.in_weight * x)
                        .sum::<usize>();
                x = weight(x, n);
            }
            // Decimation in time works on the row as it lies (sample s at position r).
            buf[if in_time { r } else { s }] = x;
        }
        let roots = &t[..(len - 1).max(1)];
        if in_time {
            decimate_in_time(m, roots, &mut buf);
        } else {
            decimate_in_frequency(m, roots, &mut buf);
        }
        for q in 0..len {
            let k = pass.local_out.index(q, len);
            let mut y = buf[if in_time {
                k
            } else {
                Order::BitReversed.index(k, len)
            }];
            if let (Some(tw), Some(slots)) = (pass.twiddle, &slot_of) {
                // The thread's power, then the value slot's (ntt_pass.cuh, run_direct).
                let (th, j) = slots[k];
                let items = layout.twiddle_items;
                y = m.mul(y, t[layout.twiddle_hi + th * items + c[tw.dim]]);
                y = m.mul(y, t[layout.twiddle_lo + j * items + c[tw.dim]]);
            } else if let Some(tw) = pass.twiddle {
                let e = (c[tw.dim] * k) % tw.root;
                let lo_bits = tw.lo_bits();
                y = m.mul(y, t[layout.twiddle_hi + (e >> lo_bits)]);
                y = m.mul(y, t[layout.twiddle_lo + (e & ((1 << lo_bits) - 1))]);
            }
            if side == WeightSide::Output {
                let kk: usize = k * pass.sample_out_weight
                    + pass
                        .dims
                        .iter()
                        .zip(&c)
                        .map(|(d, &x)| d.out_weight * x)
                        .sum::<usize>();
                y = weight(y, kk);
            }
            output[base_out + q * pass.sample_out] = y;
        }
    }
}

/// For each local frequency `k` of a direct pass, the item's thread `t` and value slot `j` that
/// hold it when the pass stores it (`k = output_frequency(t, j)`).
fn frequency_slots(pass: &NttPass) -> Vec<(usize, usize)> {
    let mut slots = vec![(0, 0); pass.len];
    for t in 0..pass.threads_per_item() {
        for j in 0..pass.values_per_thread {
            slots[pass.output_frequency(t, j)] = (t, j);
        }
    }
    slots
}

/// Radix-2 decimation in frequency in place: natural input, output `X[k]` at position
/// `bitrev(k)`. `roots` holds one table per stage, as the kernels read them
/// ([`stage_roots`]): stage `s`, of half-distance `h = len/2^(s+1)`, pairs `(i, i + h)` as
/// `(a + b, (a − b) · ω_len^{(i mod h) · 2^s})`, the root at entry `stage_roots(len, s) + i mod h`.
fn decimate_in_frequency(m: Modulus, roots: &[u64], x: &mut [u64]) {
    let len = x.len();
    let mut h = len / 2;
    let mut s = 0;
    while h >= 1 {
        let table = &roots[stage_roots(len, s)..];
        for start in (0..len).step_by(2 * h) {
            for j in 0..h {
                let (a, b) = (x[start + j], x[start + j + h]);
                x[start + j] = m.add(a, b);
                x[start + j + h] = m.mul(m.sub(a, b), table[j]);
            }
        }
        h /= 2;
        s += 1;
    }
}

/// Radix-2 decimation in time in place, the mirror image of [`decimate_in_frequency`]: input
/// `x[bitrev(i)]` at position `i`, output `X[k]` at position `k`. The stages run in the reverse
/// order (half-distance `h = 1, 2, …, len/2`, stage `s` with `h = len/2^(s+1)`), pairs
/// `(i, i + h)` as `(a + w·b, a − w·b)` with the same root `w = ω_len^{(i mod h) · 2^s}`
/// ([`NttPass::in_time`](super::schedule::NttPass::in_time)).
fn decimate_in_time(m: Modulus, roots: &[u64], x: &mut [u64]) {
    let len = x.len();
    let stages = len.trailing_zeros();
    for s in (0..stages).rev() {
        let h = len >> (s + 1);
        let table = &roots[stage_roots(len, s)..];
        for start in (0..len).step_by(2 * h) {
            for j in 0..h {
                let (a, b) = (x[start + j], m.mul(x[start + j + h], table[j]));
                x[start + j] = m.add(a, b);
                x[start + j + h] = m.sub(a, b);
            }
        }
    }
}
