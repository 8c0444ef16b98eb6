//! The model's tests: training lowers the loss, the quantised file evaluates as the float
//! model (and as the engine does), the factoriser, and a start from a network file.

use cutoff_board::{Board, CastlingMode};
use cutoff_nnue::{INPUTS, KingBuckets};

use super::*;
use crate::gradient::{Adam, ChunkGradient, batch_gradient};
use crate::layout::parse_king_buckets;
use crate::loss::loss;
use crate::test_data::{EPD, dataset_of};
use crate::{CLIP, Rng};

#[test]
fn training_lowers_the_loss_and_the_file_evaluates_as_the_float_model() {
    for buckets in [1, 8] {
        train_and_check(KingBuckets::NONE, buckets, false);
    }
}

#[test]
fn king_bucketed_training_lowers_the_loss_and_the_file_evaluates_as_the_float_model() {
    for (spec, buckets) in [("mirror", 1), ("4", 8), ("8", 1), ("16", 8)] {
        train_and_check(parse_king_buckets(spec).unwrap(), buckets, false);
    }
}

#[test]
fn factorised_training_lowers_the_loss_and_the_file_evaluates_as_the_float_model() {
    for (spec, buckets) in [("4", 8), ("16", 1)] {
        train_and_check(parse_king_buckets(spec).unwrap(), buckets, true);
    }
}

#[test]
fn a_factorised_model_computes_with_the_sums_and_starts_as_the_plain_one() {
    let layout = parse_king_buckets("4").unwrap();
    let plain = Model::new(layout, 16, 8, false, &mut Rng::new(4));
    let mut model = Model::new(layout, 16, 8, true, &mut Rng::new(4));
    // The factoriser starts at zero and draws no random numbers.
    assert_eq!(model.w1(), plain.w1());
    assert_eq!(model.params[..plain.params.len()], plain.params[..]);
    assert_eq!(model.params.len(), plain.params.len() + INPUTS * 16);
    // A factoriser row is added to the same piece and square of every bucket.
    let f = model.factor_start();
    model.params[f + 5 * 16 + 2] = 0.25;
    model.after_step();
    for bucket in 0..4 {
        let at = (bucket * INPUTS + 5) * 16 + 2;
        assert_eq!(model.w1()[at], plain.w1()[at] + 0.25);
        assert_eq!(model.w1()[at + 16], plain.w1()[at + 16], "the next square is not changed");
    }
    // The sums stay within the clip, so the quantised network passes the overflow proofs.
    model.params[f] = 1.9;
    model.params[0] = 1.9;
    model.after_step();
    assert_eq!(model.w1()[0], CLIP);
    assert!(model.quantise().into_network().is_ok());
}

#[test]
fn a_model_started_from_a_file_evaluates_as_the_file_and_quantises_back_to_it() {
    for spec in ["none", "4"] {
        let layout = parse_king_buckets(spec).unwrap();
        let data = dataset_of(layout);
        let mut model = Model::new(layout, 16, 8, false, &mut Rng::new(9));
        // Some training, so that the weights are not the initial ones.
        let set: Vec<u32> = (0..data.len() as u32).collect();
        let mut adam = Adam::new(model.params.len());
        let mut grads = ChunkGradient::for_model(&model);
        for _ in 0..20 {
            let (grad, _) = batch_gradient(&model, &data, &set, 0.5, 1, &mut grads);
            adam.step(&mut model.params, &grad, 0.01, 0.0, 1);
            model.after_step();
        }
        let network = model.quantise().into_network().unwrap();
        let started = Model::from_network(&network, layout, 16, 8).unwrap();
        // Quantising the started model gives the very file back.
        assert_eq!(started.quantise().into_network().unwrap(), network);
        // Its float evaluation is the file's, up to the integer rounding of the engine.
        let mut scratch = Scratch::new(16);
        let mut buffer = [[0u16; 2]; 32];
        for i in 0..data.len() {
            let features = data.features(i, &mut buffer);
            let board_eval = started.quantise().eval_cp(features);
            let float_eval = started.eval_cp(features, &mut scratch);
            assert!((float_eval - board_eval as f32).abs() <= 1.0, "{float_eval} vs {board_eval}");
        }
        // Another shape is refused.
        assert!(Model::from_network(&network, layout, 32, 8).is_err());
        assert!(Model::from_network(&network, layout, 16, 1).is_err());
        let other = if spec == "none" { parse_king_buckets("mirror").unwrap() } else { KingBuckets::NONE };
        assert!(Model::from_network(&network, other, 16, 8).is_err());
    }
}

fn train_and_check(layout: KingBuckets, buckets: usize, factorised: bool) {
    let data = dataset_of(layout);
    let set: Vec<u32> = (0..data.len() as u32).collect();
    let mut rng = Rng::new(7);
    let mut model = Model::new(layout, 16, buckets, factorised, &mut rng);
    let mut adam = Adam::new(model.params.len());
    let mut grads = ChunkGradient::for_model(&model);
    let before = loss(&model, &data, &set, 0.5, 1);
    for _ in 0..200 {
        let (grad, _) = batch_gradient(&model, &data, &set, 0.5, 2, &mut grads);
        adam.step(&mut model.params, &grad, 0.01, 0.0, 1);
        model.after_step();
    }
    let after = loss(&model, &data, &set, 0.5, 1);
    assert!(after < before / 2.0, "{buckets} buckets: loss {before} -> {after}");

    // The engine's inference computes exactly the trainer's quantised evaluation, and the
    // quantised evaluation stays within a few centipawns of the float one.
    let network = model.quantise().into_network().unwrap();
    let reread = cutoff_nnue::Network::from_bytes(&network.to_bytes()).unwrap();
    assert_eq!(reread.king_buckets(), &layout);
    let quantised = model.quantise();
    let mut scratch = Scratch::new(16);
    let mut buffer = [[0u16; 2]; 32];
    for (i, line) in EPD.lines().enumerate() {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        let board = Board::from_fen(&format!("{} 0 1", fen.join(" ")), CastlingMode::Standard).unwrap();
        let features = data.features(i, &mut buffer);
        assert_eq!(reread.evaluate(&board), quantised.eval_cp(features), "{buckets} buckets: {line}");
        let float = model.eval_cp(features, &mut scratch);
        assert!((float - quantised.eval_cp(features) as f32).abs() <= 5.0, "{line}: {float}");
    }
}

#[test]
fn the_accumulators_summed_by_slices_are_the_row_by_row_sums_bit_for_bit() {
    let mut rng = Rng::new(11);
    for hidden in [16, 48, 64, 128, 768] {
        let mut model = Model::new(parse_king_buckets("none").unwrap(), hidden, 1, false, &mut rng);
        let b1 = model.b1_start();
        for b in &mut model.params[b1..b1 + hidden] {
            *b = rng.uniform(1.0);
        }
        // Rows in any order, repeats included, as a position's two perspectives give them.
        let features: Vec<[u16; 2]> =
            (0..32).map(|_| [(rng.next() % INPUTS as u64) as u16, (rng.next() % INPUTS as u64) as u16]).collect();
        let (mut acc, mut other) = (vec![0.0; hidden], vec![0.0; hidden]);
        model.accumulate(&features, &mut acc, &mut other);
        for (side, sums) in [(0, &acc), (1, &other)] {
            let mut expected = model.b1().to_vec();
            for pair in &features {
                let row = &model.w1()[usize::from(pair[side]) * hidden..][..hidden];
                for (e, w) in expected.iter_mut().zip(row) {
                    *e += w;
                }
            }
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(sums), bits(&expected), "N {hidden}, side {side}");
        }
    }
}
