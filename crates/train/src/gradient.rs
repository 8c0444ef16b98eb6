//! A batch's gradient, summed over a fixed number of chunks in order (so the result does not
//! depend on the thread count), and Adam's step.

use crate::data::Dataset;
use crate::model::{Model, Scratch, target};
use crate::{CHUNKS, CLIP};

/// Adam's state.
#[derive(Debug)]
pub(crate) struct Adam {
    pub(crate) m: Vec<f32>,
    pub(crate) v: Vec<f32>,
    pub(crate) t: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    pub(crate) fn new(size: usize) -> Adam {
        Adam { m: vec![0.0; size], v: vec![0.0; size], t: 0 }
    }

    /// One step at learning rate `lr`; `decay` is AdamW's decoupled weight decay (0: Adam).
    /// Each weight's update is its own, so `threads` share the weights in parts.
    pub(crate) fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32, decay: f32, threads: usize) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        let keep = 1.0 - lr * decay;
        let per = params.len().div_ceil(threads.max(1)).max(1);
        std::thread::scope(|s| {
            let parts =
                params.chunks_mut(per).zip(grad.chunks(per)).zip(self.m.chunks_mut(per).zip(self.v.chunks_mut(per)));
            for ((params, grad), (m, v)) in parts {
                s.spawn(move || {
                    for (((p, g), m), v) in params.iter_mut().zip(grad).zip(m).zip(v) {
                        *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
                        *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
                        if decay != 0.0 {
                            *p *= keep;
                        }
                        *p -= lr * (*m / c1) / ((*v / c2).sqrt() + Self::EPSILON);
                        *p = p.clamp(-CLIP, CLIP);
                    }
                });
            }
        });
    }
}

/// One chunk's gradient, kept sparse in `W1`: a position adds to the `W1` rows of its ~30
/// features only, so the buffer records which rows it wrote (`touched`, and the list
/// `rows`), and only those are summed into the batch's gradient and cleared for the next
/// batch. Rows it did not touch hold `+0.0`, whose addition would change nothing (a sum that
/// starts at `+0.0` is never `-0.0`), so the sum is bit for bit the dense one. The rest of the
/// buffer (`b1`, `W2`, `b2`) is dense. With king buckets `W1` has `K` times the rows while a
/// chunk still touches a few thousand of them, so clearing and summing whole buffers
/// (`CHUNKS` × the model's size a batch) would cost more than the positions themselves.
#[derive(Clone, Debug)]
pub(crate) struct ChunkGradient {
    pub(crate) grad: Vec<f32>,
    /// Whether each row of `W1` is listed in `rows`.
    touched: Vec<bool>,
    /// The rows of `W1` this chunk's positions wrote since the last clear.
    pub(crate) rows: Vec<u32>,
}

impl ChunkGradient {
    /// `CHUNKS` cleared buffers for `model`.
    pub(crate) fn for_model(model: &Model) -> Vec<ChunkGradient> {
        let empty = ChunkGradient {
            // The factoriser's gradient is derived from W1's after the chunks are summed.
            grad: vec![0.0; model.factor_start()],
            touched: vec![false; model.inputs()],
            rows: Vec::new(),
        };
        vec![empty; CHUNKS]
    }

    /// Records that a position with these features writes their rows (both perspectives).
    fn touch(&mut self, features: &[[u16; 2]]) {
        for &[f, g] in features {
            for row in [f, g] {
                if !self.touched[usize::from(row)] {
                    self.touched[usize::from(row)] = true;
                    self.rows.push(u32::from(row));
                }
            }
        }
    }

    /// Zeroes what the last batch wrote: the touched rows of `W1` and the dense rest.
    fn clear(&mut self, hidden: usize, b1_start: usize) {
        for &row in &self.rows {
            self.grad[row as usize * hidden..][..hidden].fill(0.0);
            self.touched[row as usize] = false;
        }
        self.rows.clear();
        self.grad[b1_start..].fill(0.0);
    }
}

/// The `W1` gradient of a group of positions, summed row by row: each position leaves the
/// gradient at its two accumulators here ([`GroupGradient::record`]), and
/// [`GroupGradient::add_to`] then adds to each `W1` row everything the group's features give
/// it, `ROW_SLICE` neurons at a time in registers. The chunk's gradient rows are thus read and
/// written once a group instead of once a feature, while the group's accumulator gradients
/// (`capacity` × 2 × N floats) stay in the L2. Each row still receives its additions in the
/// order of the per-position pass (position by position, and in a position feature by feature,
/// its own side before the other), so the sums are the same bit for bit.
pub(crate) struct GroupGradient {
    pub(crate) hidden: usize,
    /// Positions a group holds.
    pub(crate) capacity: usize,
    /// The gradient at both accumulators of each position in the group: `2 × slot + side`.
    pub(crate) d: Vec<f32>,
    /// `(row, source)` in the order the per-position pass adds them; `source` indexes `d`.
    pub(crate) adds: Vec<(u16, u16)>,
    /// Per `W1` row, while [`GroupGradient::add_to`] sorts: how many of `adds` go to it, then
    /// where its sources start in `sources`; zero between groups.
    pub(crate) count: Vec<u32>,
    /// The rows in `adds`, in the order of their first addition.
    pub(crate) rows: Vec<u16>,
    /// `adds`' sources grouped by row, in `rows`' order, each row's in the order of `adds`.
    sources: Vec<u16>,
}

/// Neurons of a `W1` row summed at a time in [`GroupGradient::add_to`]: eight AVX2 registers.
pub(crate) const ROW_SLICE: usize = 64;

impl GroupGradient {
    pub(crate) fn new(model: &Model) -> GroupGradient {
        let hidden = model.hidden;
        // About 128 KB of accumulator gradients, so that they stay in the L2 with room to spare.
        let capacity = (128 * 1024 / (2 * hidden * 4)).clamp(4, 256);
        GroupGradient {
            hidden,
            capacity,
            d: vec![0.0; capacity * 2 * hidden],
            adds: Vec::new(),
            count: vec![0; model.inputs()],
            rows: Vec::new(),
            sources: Vec::new(),
        }
    }

    /// Notes the features of the group's position `slot` and hands out its two accumulator
    /// gradients, own side first, for [`Model::backward_dense`] to fill.
    pub(crate) fn record(&mut self, slot: usize, features: &[[u16; 2]]) -> (&mut [f32], &mut [f32]) {
        let own = (2 * slot) as u16;
        for &[f, g] in features {
            self.adds.push((f, own));
            self.adds.push((g, own + 1));
        }
        self.d[2 * slot * self.hidden..][..2 * self.hidden].split_at_mut(self.hidden)
    }

    /// Adds the recorded group's gradient to the rows of `w1` and empties the group.
    pub(crate) fn add_to(&mut self, w1: &mut [f32]) {
        // A stable counting sort of the additions by row.
        for &(row, _) in &self.adds {
            let count = &mut self.count[usize::from(row)];
            if *count == 0 {
                self.rows.push(row);
            }
            *count += 1;
        }
        let mut end = 0;
        for &row in &self.rows {
            let count = &mut self.count[usize::from(row)];
            *count += end;
            end = *count;
        }
        self.sources.resize(self.adds.len(), 0);
        for &(row, source) in self.adds.iter().rev() {
            let count = &mut self.count[usize::from(row)];
            *count -= 1;
            self.sources[*count as usize] = source;
        }
        // `count` now holds where each row's sources start.
        let n = self.hidden;
        for (k, &row) in self.rows.iter().enumerate() {
            let start = self.count[usize::from(row)] as usize;
            let end = self.rows.get(k + 1).map_or(self.adds.len(), |&next| self.count[usize::from(next)] as usize);
            let out = &mut w1[usize::from(row) * n..][..n];
            let sources = &self.sources[start..end];
            if n.is_multiple_of(ROW_SLICE) {
                add_rows::<ROW_SLICE>(out, &self.d, n, sources.iter().map(|&s| usize::from(s)));
            } else {
                add_rows::<16>(out, &self.d, n, sources.iter().map(|&s| usize::from(s)));
            }
        }
        for &row in &self.rows {
            self.count[usize::from(row)] = 0;
        }
        self.rows.clear();
        self.adds.clear();
    }
}

/// Adds to `out` the rows of `d` (each `n` long) that `rows` names, in that order, `W`
/// neurons at a time: a slice of the sum stays in registers while every row adds to it, so
/// `out` is read and written once instead of once a row. Each neuron's additions keep their
/// order, so the sums are those of adding row by row, bit for bit. The forward pass sums the
/// accumulators with it too.
pub(crate) fn add_rows<const W: usize>(
    out: &mut [f32],
    d: &[f32],
    n: usize,
    rows: impl Iterator<Item = usize> + Clone,
) {
    for (slice, out) in out.chunks_exact_mut(W).enumerate() {
        let mut sum: [f32; W] = std::array::from_fn(|j| out[j]);
        for row in rows.clone() {
            for (s, x) in sum.iter_mut().zip(&d[row * n + slice * W..][..W]) {
                *s += x;
            }
        }
        out.copy_from_slice(&sum);
    }
}

/// The gradient (mean over the batch) and summed squared error of `batch`, in `CHUNKS` fixed
/// chunks spread over `threads`; `grads` are the chunks' buffers
/// ([`ChunkGradient::for_model`]), reused from batch to batch. The chunks' gradients are
/// summed in chunk order, so the result does not depend on `threads`.
pub(crate) fn batch_gradient(
    model: &Model,
    data: &Dataset,
    batch: &[u32],
    lambda: f32,
    threads: usize,
    grads: &mut [ChunkGradient],
) -> (Vec<f32>, f64) {
    let per = batch.len().div_ceil(CHUNKS).max(1);
    let chunks: Vec<&[u32]> = batch.chunks(per).collect();
    let mut errors = vec![0.0f64; chunks.len()];
    let (hidden, b1_start) = (model.hidden, model.b1_start());
    std::thread::scope(|s| {
        let mut work: Vec<(&[u32], &mut ChunkGradient, &mut f64)> =
            chunks.iter().copied().zip(grads.iter_mut()).zip(errors.iter_mut()).map(|((c, g), e)| (c, g, e)).collect();
        let per_thread = work.len().div_ceil(threads.max(1)).max(1);
        while !work.is_empty() {
            let take = per_thread.min(work.len());
            let mine: Vec<_> = work.drain(..take).collect();
            s.spawn(move || {
                let mut scratch = Scratch::new(model.hidden);
                let mut group = GroupGradient::new(model);
                let mut buffer = [[0u16; 2]; 32];
                for (chunk, grad, error) in mine {
                    grad.clear(hidden, b1_start);
                    let mut sum = 0.0f64;
                    for positions in chunk.chunks(group.capacity) {
                        for (slot, &i) in positions.iter().enumerate() {
                            let (p, features) = data.entry(i, &mut buffer);
                            grad.touch(features);
                            let d = group.record(slot, features);
                            let acc = (&mut scratch.acc[..], &mut scratch.other[..]);
                            sum += f64::from(model.backward_dense(features, target(p, lambda), acc, d, &mut grad.grad));
                        }
                        group.add_to(&mut grad.grad[..b1_start]);
                    }
                    *error = sum;
                }
            });
        }
    });
    let mut total = vec![0.0f32; model.params.len()];
    let used = &grads[..chunks.len()];
    // The rows of `W1` are summed by `threads` in parallel, each its own rows; every entry still
    // takes the chunks in order.
    let (w1_total, rest) = total.split_at_mut(b1_start);
    let rows_per_thread = model.inputs().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        for (part, rows) in w1_total.chunks_mut(rows_per_thread * hidden).zip((0..).step_by(rows_per_thread)) {
            s.spawn(move || {
                for (row, out) in (rows..).zip(part.chunks_exact_mut(hidden)) {
                    for g in used.iter().filter(|g| g.touched[row]) {
                        for (t, x) in out.iter_mut().zip(&g.grad[row * hidden..][..hidden]) {
                            *t += x;
                        }
                    }
                }
            });
        }
    });
    for g in used {
        for (t, x) in rest.iter_mut().zip(&g.grad[b1_start..]) {
            *t += x;
        }
    }
    model.add_factor_gradient(&mut total);
    let scale = 1.0 / batch.len() as f32;
    for_each_part(&mut total, threads, |part| part.iter_mut().for_each(|t| *t *= scale));
    (total, errors.iter().sum())
}

/// Runs `f` on `threads` parts of `values` in parallel.
fn for_each_part(values: &mut [f32], threads: usize, f: impl Fn(&mut [f32]) + Sync) {
    let per = values.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        for part in values.chunks_mut(per) {
            let f = &f;
            s.spawn(move || f(part));
        }
    });
}

#[cfg(test)]
mod tests;
