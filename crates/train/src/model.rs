//! The float model the trainer optimises, its forward and backward passes, and its
//! quantisation into the engine's network.

use cutoff_nnue::{InputSet, Inputs};

use crate::data::Packed;
use crate::error::TrainError;
use crate::gradient::{ROW_SLICE, add_rows};
use crate::{CLIP, CLIP_OUTPUT, LANES, Rng, spec};

/// The float network; all weights in one vector `[W1 | b1 | W2 | b2]` (`W2`: one block of
/// `2 * hidden` per output bucket, `b2`: one bias per bucket) so that Adam and the gradient
/// sums treat them alike.
#[derive(Clone, Debug)]
pub(crate) struct Model {
    /// The input layout: `W1` has `layout.inputs()` rows.
    pub(crate) layout: Inputs,
    pub(crate) hidden: usize,
    pub(crate) buckets: usize,
    /// `W1`, `b1`, `W2`, `b2`, and with a factoriser its 768 shared rows `F` at the end.
    pub(crate) params: Vec<f32>,
    /// Whether `params` ends with the factoriser `F` (see [`TrainConfig::factorise`](crate::TrainConfig::factorise)).
    pub(crate) factorised: bool,
    /// With a factoriser, the `W1` the network computes with: each row plus the factoriser's
    /// row of its piece and square, clipped to `[-CLIP, CLIP]` (kept up to date by
    /// [`Model::after_step`]); empty without.
    effective: Vec<f32>,
}

impl Model {
    /// A model with random weights; a factoriser starts at zero, so that the initial network
    /// (and the random numbers drawn) are the same with and without one.
    pub(crate) fn new(layout: Inputs, hidden: usize, buckets: usize, factorised: bool, rng: &mut Rng) -> Model {
        let inputs = layout.inputs();
        let factor = if factorised { layout.factors() * hidden } else { 0 };
        let mut params = vec![0.0; Self::size(inputs, hidden, buckets) + factor];
        // Scaled by the 768 inputs of one bucket: a position's features all lie in one.
        let a1 = 1.0 / (768f32).sqrt();
        for w in &mut params[..inputs * hidden] {
            *w = rng.uniform(a1);
        }
        let a2 = 1.0 / ((2 * hidden) as f32).sqrt();
        let w2 = (inputs + 1) * hidden;
        for w in &mut params[w2..w2 + buckets * 2 * hidden] {
            *w = rng.uniform(a2);
        }
        let mut model = Model { layout, hidden, buckets, params, factorised, effective: Vec::new() };
        model.after_step();
        model
    }

    /// A model with the weights of `net` (see [`TrainConfig::init`](crate::TrainConfig::init)), which must have
    /// the layout, hidden size and output buckets asked for; else why not.
    pub(crate) fn from_network(
        net: &cutoff_nnue::Network,
        layout: Inputs,
        hidden: usize,
        buckets: usize,
    ) -> Result<Model, String> {
        if *net.inputs() != layout || net.hidden() != hidden || net.output_buckets() != buckets {
            return Err(format!(
                "the network is ({:?} -> {}) x 2 -> {}, not ({layout:?} -> {hidden}) x 2 -> {buckets} as asked",
                net.king_buckets(),
                net.hidden(),
                net.output_buckets(),
            ));
        }
        let qa = |&w: &i16| f32::from(w) / spec::QA;
        let qb = |&w: &i16| f32::from(w) / spec::QB;
        let mut params: Vec<f32> = net.feature_weights().iter().map(qa).collect();
        params.extend(net.feature_bias().iter().map(qa));
        params.extend(net.output_weights().iter().map(qb));
        params.extend(net.output_bias().iter().map(|&b| b as f32 / (spec::QA * spec::QB)));
        if params.len() != Self::size(layout.inputs(), hidden, buckets) {
            return Err("the network's weights do not have the model's shape".into());
        }
        let mut model = Model { layout, hidden, buckets, params, factorised: false, effective: Vec::new() };
        model.after_step();
        Ok(model)
    }

    /// The number of parameters of `W1`, `b1`, `W2` and `b2` (without a factoriser).
    pub(crate) fn size(inputs: usize, hidden: usize, buckets: usize) -> usize {
        (inputs + 1) * hidden + buckets * (2 * hidden + 1)
    }

    /// Where the factoriser `F` starts in `params` (its end without one).
    pub(crate) fn factor_start(&self) -> usize {
        Self::size(self.inputs(), self.hidden, self.buckets)
    }

    /// The number of rows of `W1`.
    pub(crate) fn inputs(&self) -> usize {
        self.layout.inputs()
    }

    /// Where `b1` starts in `params`.
    pub(crate) fn b1_start(&self) -> usize {
        self.inputs() * self.hidden
    }

    /// Where `W2` starts in `params`.
    pub(crate) fn w2_start(&self) -> usize {
        (self.inputs() + 1) * self.hidden
    }

    /// Where `b2` starts in `params`.
    pub(crate) fn b2_start(&self) -> usize {
        self.w2_start() + self.buckets * 2 * self.hidden
    }

    /// The `W1` the network computes with (with a factoriser, the sums).
    pub(crate) fn w1(&self) -> &[f32] {
        if self.factorised { &self.effective } else { &self.params[..self.b1_start()] }
    }
    pub(crate) fn b1(&self) -> &[f32] {
        &self.params[self.b1_start()..self.w2_start()]
    }
    /// The output weights of every bucket.
    fn w2_all(&self) -> &[f32] {
        &self.params[self.w2_start()..self.b2_start()]
    }
    /// The output weights of `bucket`.
    pub(crate) fn w2(&self, bucket: usize) -> &[f32] {
        &self.w2_all()[bucket * 2 * self.hidden..(bucket + 1) * 2 * self.hidden]
    }
    pub(crate) fn b2(&self) -> &[f32] {
        &self.params[self.b2_start()..self.factor_start()]
    }

    /// The output bucket of a position with these features (one per piece).
    pub(crate) fn bucket(&self, features: &[[u16; 2]]) -> usize {
        cutoff_nnue::output_bucket(features.len() as u32, self.buckets)
    }

    /// After each optimiser step: clips the output weights to `[-CLIP_OUTPUT, CLIP_OUTPUT]`
    /// and, with a factoriser, recomputes the effective `W1`.
    pub(crate) fn after_step(&mut self) {
        let (start, end) = (self.w2_start(), self.b2_start());
        for w in &mut self.params[start..end] {
            *w = w.clamp(-CLIP_OUTPUT, CLIP_OUTPUT);
        }
        if self.factorised {
            let n = self.hidden;
            let (w1, rest) = self.params.split_at(self.b1_start());
            let factor = &rest[self.factor_start() - self.b1_start()..];
            self.effective.resize(w1.len(), 0.0);
            for ((row, own), out) in w1.chunks_exact(n).enumerate().zip(self.effective.chunks_exact_mut(n)) {
                let shared = &factor[self.layout.factor(row) * n..][..n];
                for ((e, w), f) in out.iter_mut().zip(own).zip(shared) {
                    *e = (w + f).clamp(-CLIP, CLIP);
                }
            }
        }
    }

    /// With a factoriser, adds to its rows in `grad` the gradient of every `W1` row of the
    /// same piece and square (the factoriser's row is in all their sums).
    pub(crate) fn add_factor_gradient(&self, grad: &mut [f32]) {
        if !self.factorised {
            return;
        }
        let n = self.hidden;
        let (w1, rest) = grad.split_at_mut(self.b1_start());
        let factor = &mut rest[self.factor_start() - self.b1_start()..];
        for (row, g) in w1.chunks_exact(n).enumerate() {
            for (f, x) in factor[self.layout.factor(row) * n..][..n].iter_mut().zip(g) {
                *f += x;
            }
        }
    }

    /// The accumulators of both perspectives of one position.
    fn accumulate(&self, features: &[[u16; 2]], acc: &mut [f32], other: &mut [f32]) {
        let n = self.hidden;
        for (side, out) in [acc, other].into_iter().enumerate() {
            out.copy_from_slice(self.b1());
            let rows = features.iter().map(|pair| usize::from(pair[side]));
            if n.is_multiple_of(ROW_SLICE) {
                add_rows::<ROW_SLICE>(out, self.w1(), n, rows);
            } else {
                add_rows::<LANES>(out, self.w1(), n, rows);
            }
        }
    }

    /// The output (before the sigmoid) of `bucket` from the accumulators.
    pub(crate) fn output(&self, acc: &[f32], other: &[f32], bucket: usize) -> f32 {
        let w2 = self.w2(bucket);
        let n = self.hidden;
        // `LANES` running sums, each over every `LANES`-th neuron, added at the end: one sum
        // would chain all 2N additions one after another, which the compiler may not reorder
        // into vector lanes itself (the hidden size is a multiple of 16).
        let mut lanes = [0.0f32; LANES];
        for (a, w) in [(acc, &w2[..n]), (other, &w2[n..])] {
            for (a, w) in a.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
                for ((sum, a), w) in lanes.iter_mut().zip(a).zip(w) {
                    let c = a.clamp(0.0, 1.0);
                    *sum += c * c * w;
                }
            }
        }
        self.b2()[bucket] + lanes.iter().sum::<f32>()
    }

    /// Adds the loss gradient of one position to `grad`; returns its squared error. The
    /// reference for `batch_gradient`, which adds `W1`'s part group by group instead.
    #[cfg(test)]
    pub(crate) fn backward(&self, features: &[[u16; 2]], target: f32, scratch: &mut Scratch, grad: &mut [f32]) -> f32 {
        let n = self.hidden;
        let (mut d_acc, mut d_other) = (vec![0.0; n], vec![0.0; n]);
        let acc = (&mut scratch.acc[..], &mut scratch.other[..]);
        let error = self.backward_dense(features, target, acc, (&mut d_acc, &mut d_other), grad);
        let g_w1 = &mut grad[..self.b1_start()];
        for &[f, g] in features {
            for (w, d) in g_w1[f as usize * n..][..n].iter_mut().zip(&d_acc) {
                *w += d;
            }
            for (w, d) in g_w1[g as usize * n..][..n].iter_mut().zip(&d_other) {
                *w += d;
            }
        }
        error
    }

    /// One position's pass but for `W1`'s gradient: adds the gradient of `b1`, `W2` and `b2`
    /// to `grad`, leaves the gradient at both accumulators in `d` (which `W1`'s rows of the
    /// features receive) and returns the squared error. `acc` is scratch space.
    pub(crate) fn backward_dense(
        &self,
        features: &[[u16; 2]],
        target: f32,
        (acc, other): (&mut [f32], &mut [f32]),
        (d_acc, d_other): (&mut [f32], &mut [f32]),
        grad: &mut [f32],
    ) -> f32 {
        let n = self.hidden;
        self.accumulate(features, acc, other);
        let bucket = self.bucket(features);
        let out = self.output(acc, other, bucket);
        let p = sigmoid(out);
        let err = p - target;
        let d_out = 2.0 * err * p * (1.0 - p);
        let w2 = self.w2(bucket);
        let rest = &mut grad[self.b1_start()..];
        let (g_b1, rest) = rest.split_at_mut(n);
        let (g_w2, g_b2) = rest.split_at_mut(self.buckets * 2 * n);
        let g_w2 = &mut g_w2[bucket * 2 * n..(bucket + 1) * 2 * n];
        g_b2[bucket] += d_out;
        let (g_w2_own, g_w2_other) = g_w2.split_at_mut(n);
        let (w2_own, w2_other) = w2.split_at(n);
        // One perspective's output weights and accumulator give its share of `W2`'s gradient
        // and the gradient at its accumulator.
        let side = |acc: &[f32], w2: &[f32], g_w2: &mut [f32], d: &mut [f32]| {
            for (((&a, &w), g), d) in acc.iter().zip(w2).zip(g_w2.iter_mut()).zip(d.iter_mut()) {
                let c = a.clamp(0.0, 1.0);
                *g += d_out * c * c;
                *d = if a > 0.0 && a < 1.0 { d_out * w * 2.0 * a } else { 0.0 };
            }
        };
        side(acc, w2_own, g_w2_own, d_acc);
        side(other, w2_other, g_w2_other, d_other);
        for ((g, a), o) in g_b1.iter_mut().zip(d_acc.iter()).zip(d_other.iter()) {
            *g += a + o;
        }
        err * err
    }

    /// The evaluation in centipawns (float).
    pub(crate) fn eval_cp(&self, features: &[[u16; 2]], scratch: &mut Scratch) -> f32 {
        self.accumulate(features, &mut scratch.acc, &mut scratch.other);
        self.output(&scratch.acc, &scratch.other, self.bucket(features)) * spec::SCALE
    }

    /// The quantised parts in the order of the network file.
    pub(crate) fn quantise(&self) -> Quantised {
        let q = |x: f32, s: f32| (x * s).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        Quantised {
            layout: self.layout,
            hidden: self.hidden,
            feature_weights: self.w1().iter().map(|&w| q(w, spec::QA)).collect(),
            feature_bias: self.b1().iter().map(|&w| q(w, spec::QA)).collect(),
            output_weights: self.w2_all().iter().map(|&w| q(w, spec::QB)).collect(),
            output_bias: self.b2().iter().map(|&b| (b * spec::QA * spec::QB).round() as i32).collect(),
        }
    }
}

/// A quantised network, in the layout of `cutoff-nnue`'s file.
#[derive(Debug)]
pub(crate) struct Quantised {
    pub(crate) layout: Inputs,
    pub(crate) hidden: usize,
    feature_weights: Vec<i16>,
    feature_bias: Vec<i16>,
    output_weights: Vec<i16>,
    /// One per bucket.
    output_bias: Vec<i32>,
}

impl Quantised {
    /// The engine's network, built through `cutoff-nnue`'s checks (overflow proofs included).
    pub(crate) fn into_network(self) -> Result<cutoff_nnue::Network, TrainError> {
        cutoff_nnue::Network::from_bucketed_parts(
            self.layout,
            self.hidden,
            self.feature_weights,
            self.feature_bias,
            self.output_weights,
            self.output_bias,
        )
        .map_err(TrainError::Network)
    }

    /// The integer evaluation of `cutoff-nnue` (see its docs), for checking the quantisation.
    pub(crate) fn eval_cp(&self, features: &[[u16; 2]]) -> i32 {
        let n = self.hidden;
        let mut acc: Vec<i32> = self.feature_bias.iter().map(|&b| i32::from(b)).collect();
        let mut other = acc.clone();
        for &[f, g] in features {
            for j in 0..n {
                acc[j] += i32::from(self.feature_weights[f as usize * n + j]);
                other[j] += i32::from(self.feature_weights[g as usize * n + j]);
            }
        }
        let (qa, qb) = (spec::QA as i64, spec::QB as i64);
        let bucket = cutoff_nnue::output_bucket(features.len() as u32, self.output_bias.len());
        let w = &self.output_weights[bucket * 2 * n..(bucket + 1) * 2 * n];
        let mut sum: i64 = 0;
        for j in 0..n {
            let c = i64::from(acc[j].clamp(0, qa as i32));
            let d = i64::from(other[j].clamp(0, qa as i32));
            sum += c * c * i64::from(w[j]) + d * d * i64::from(w[n + j]);
        }
        ((sum / qa + i64::from(self.output_bias[bucket])) * spec::SCALE as i64 / (qa * qb)) as i32
    }
}

/// Per-thread buffers of one forward pass: the accumulators of both perspectives.
#[derive(Clone, Debug)]
pub(crate) struct Scratch {
    pub(crate) acc: Vec<f32>,
    pub(crate) other: Vec<f32>,
}

impl Scratch {
    pub(crate) fn new(n: usize) -> Scratch {
        Scratch { acc: vec![0.0; n], other: vec![0.0; n] }
    }
}

pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The target of a position (see the module docs).
pub(crate) fn target(s: &Packed, lambda: f32) -> f32 {
    let result = s.result();
    if s.score.is_nan() { result } else { lambda * result + (1.0 - lambda) * sigmoid(s.score / spec::SCALE) }
}

#[cfg(test)]
mod tests;
