//! The gradient's tests: against finite differences, bit for bit against the per-position
//! reference, the same for any thread count; and Adam's step.

use cutoff_nnue::{INPUTS, KingBuckets};

use super::*;
use crate::Rng;
use crate::layout::parse_king_buckets;
use crate::model::{Model, Scratch, sigmoid, target};
use crate::spec;
use crate::test_data::{dataset, dataset_of};

#[test]
fn weight_decay_shrinks_each_weight_by_its_share_of_the_learning_rate() {
    let mut params = vec![1.0f32, -0.5, 0.25];
    let mut adam = Adam::new(params.len());
    // A zero gradient moves nothing but the decay: each weight keeps 1 - 0.1 * 0.5 of itself.
    adam.step(&mut params, &[0.0; 3], 0.1, 0.5, 2);
    assert_eq!(params, [0.95, -0.475, 0.2375]);
    let mut plain = vec![1.0f32, -0.5, 0.25];
    Adam::new(3).step(&mut plain, &[0.0; 3], 0.1, 0.0, 1);
    assert_eq!(plain, [1.0, -0.5, 0.25]);
}

#[test]
fn gradients_do_not_depend_on_the_thread_count() {
    let data = dataset();
    let set: Vec<u32> = (0..data.len() as u32).collect();
    let model = Model::new(KingBuckets::NONE, 32, 8, false, &mut Rng::new(3));
    let mut grads = ChunkGradient::for_model(&model);
    let (one, e1) = batch_gradient(&model, &data, &set, 0.5, 1, &mut grads);
    let (three, e3) = batch_gradient(&model, &data, &set, 0.5, 3, &mut grads);
    assert_eq!(one, three);
    assert_eq!(e1, e3);
    // Nor do Adam's steps (AdamW here, to cover the decay too).
    let steps = |threads| {
        let (mut params, mut adam) = (model.params.clone(), Adam::new(model.params.len()));
        for _ in 0..2 {
            adam.step(&mut params, &one, 0.01, 0.1, threads);
        }
        params
    };
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&steps(1)), bits(&steps(3)));
    assert_ne!(bits(&steps(1)), bits(&model.params));
}

#[test]
fn sparse_chunk_gradients_equal_the_dense_sum_bit_for_bit() {
    // The chunks' buffers are reused: a second batch must see nothing of the first.
    // Hidden 32 sums `W1`'s rows 16 neurons at a time, 64 a `ROW_SLICE` at a time.
    let data = dataset_of(parse_king_buckets("8").unwrap());
    let all: Vec<u32> = (0..data.len() as u32).collect();
    let (first, second) = all.split_at(all.len() / 2);
    for hidden in [32, 64] {
        let model = Model::new(data.layout, hidden, 8, false, &mut Rng::new(9));
        let mut grads = ChunkGradient::for_model(&model);
        for batch in [first, second, &all[..]] {
            let (sparse, _) = batch_gradient(&model, &data, batch, 0.5, 2, &mut grads);
            // The reference: every chunk into a whole zeroed buffer, summed in chunk order.
            let mut dense = vec![0.0f32; model.params.len()];
            let mut scratch = Scratch::new(model.hidden);
            let mut buffer = [[0u16; 2]; 32];
            for chunk in batch.chunks(batch.len().div_ceil(CHUNKS)) {
                let mut grad = vec![0.0f32; model.params.len()];
                for &i in chunk {
                    let (p, features) = data.entry(i, &mut buffer);
                    model.backward(features, target(p, 0.5), &mut scratch, &mut grad);
                }
                for (t, x) in dense.iter_mut().zip(&grad) {
                    *t += x;
                }
            }
            let scale = 1.0 / batch.len() as f32;
            dense.iter_mut().for_each(|t| *t *= scale);
            assert!(dense.iter().any(|&g| g != 0.0));
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&sparse), bits(&dense));
        }
    }
}

#[test]
fn a_group_adds_to_each_row_in_the_order_of_the_positions() {
    // Groups of 3 positions over 7 positions, rows shared between positions and between
    // the two sides of one position: every row must come out as the additions one by one
    // in `Model::backward`'s order, bit for bit, and a group must leave nothing behind.
    let mut rng = Rng::new(5);
    let model = Model::new(KingBuckets::NONE, 64, 1, false, &mut rng);
    let mut group = GroupGradient::new(&model);
    group.capacity = 3;
    let n = model.hidden;
    let positions: Vec<Vec<[u16; 2]>> =
        (0..7u16).map(|p| (0..5u16).map(|k| [(p * 7 + k * 3) % 20, (k * 5 + p) % 20]).collect()).collect();
    let gradients: Vec<Vec<f32>> = (0..7).map(|_| (0..2 * n).map(|_| rng.uniform(1.0)).collect()).collect();
    let mut grouped = vec![0.5f32; INPUTS * n];
    let mut reference = grouped.clone();
    for (p, features) in positions.iter().enumerate() {
        let (own, other) = gradients[p].split_at(n);
        for &[f, g] in features {
            for (w, d) in reference[usize::from(f) * n..][..n].iter_mut().zip(own) {
                *w += d;
            }
            for (w, d) in reference[usize::from(g) * n..][..n].iter_mut().zip(other) {
                *w += d;
            }
        }
    }
    for (first, chunk) in positions.chunks(group.capacity).enumerate() {
        for (slot, features) in chunk.iter().enumerate() {
            let (own, other) = group.record(slot, features);
            let p = first * 3 + slot;
            own.copy_from_slice(&gradients[p][..n]);
            other.copy_from_slice(&gradients[p][n..]);
        }
        group.add_to(&mut grouped);
        assert!(group.adds.is_empty() && group.rows.is_empty() && group.count.iter().all(|&c| c == 0));
    }
    assert!(reference.iter().any(|&w| w != 0.5));
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&grouped), bits(&reference));
}

#[test]
fn gradients_match_finite_differences() {
    finite_differences(KingBuckets::NONE, false);
}

#[test]
fn king_bucketed_gradients_match_finite_differences() {
    finite_differences(parse_king_buckets("8").unwrap(), false);
}

#[test]
fn factorised_gradients_match_finite_differences() {
    finite_differences(parse_king_buckets("8").unwrap(), true);
}

fn finite_differences(layout: KingBuckets, factorised: bool) {
    // Positions of 3, 24 and 32 pieces: buckets 0, 5 and 7 of 8.
    let data = dataset_of(layout);
    let set: Vec<u32> = (0..data.len() as u32).collect();
    let mut model = Model::new(layout, 16, 8, factorised, &mut Rng::new(5));
    // Biases that put most neurons inside SCReLU's curved part, where gradients flow.
    let n = model.hidden;
    let (b1, w2) = (model.b1_start(), model.w2_start());
    for b in &mut model.params[b1..w2] {
        *b = 0.3;
    }
    let mut grads = ChunkGradient::for_model(&model);
    let (grad, _) = batch_gradient(&model, &data, &set, 0.5, 1, &mut grads);
    // The summed squared error over the set, in f64 for a clean difference quotient.
    let error = |m: &Model| -> f64 {
        let mut scratch = Scratch::new(m.hidden);
        let mut buffer = [[0u16; 2]; 32];
        set.iter()
            .map(|&i| {
                let (p, features) = data.entry(i, &mut buffer);
                let e = f64::from(sigmoid(m.eval_cp(features, &mut scratch) / spec::SCALE)) - f64::from(target(p, 0.5));
                e * e
            })
            .sum::<f64>()
            / set.len() as f64
    };
    let feature = data.features(2, &mut [[0u16; 2]; 32])[0][0] as usize; // a piece of a 3-piece position
    let (w2, b2) = (model.w2_start(), model.b2_start());
    let mut checked = vec![
        feature * n + 3,        // a feature weight
        b1 + 5,                 // a feature bias
        w2 + 7,                 // bucket 0, side to move
        w2 + 7 * 2 * n + n + 2, // bucket 7, other side
        b2,                     // bucket 0's bias
        b2 + 7,                 // bucket 7's bias
    ];
    if factorised {
        // The factoriser's row of that feature's piece and square, in every bucket's sum.
        checked.push(model.factor_start() + (feature % INPUTS) * n + 3);
    }
    for index in checked {
        let h = 1e-2;
        let (mut plus, mut minus) = (model.clone(), model.clone());
        plus.params[index] += h;
        minus.params[index] -= h;
        plus.after_step();
        minus.after_step();
        let numeric = (error(&plus) - error(&minus)) / (2.0 * f64::from(h));
        let analytic = f64::from(grad[index]);
        assert!(
            (numeric - analytic).abs() <= 1e-3 * numeric.abs().max(analytic.abs()) + 1e-6,
            "parameter {index}: analytic {analytic}, numeric {numeric}"
        );
        assert!(analytic.abs() > 1e-7, "parameter {index} has no gradient to check");
    }
    // Buckets no position uses get no gradient.
    assert!(grad[w2 + 3 * 2 * n..w2 + 4 * 2 * n].iter().all(|&g| g == 0.0));
    assert_eq!(grad[b2 + 3], 0.0);
}
