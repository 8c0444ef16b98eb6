//! The losses of a run drawn as an SVG picture: the training and validation curves over the
//! epochs, with axes, a grid and a legend. Written by hand: a picture of two lines needs no
//! plotting library.

use std::fmt::Write as _;

use crate::loss::LossHistory;

/// The picture's size in pixels.
const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 440.0;

/// The plot area's margins: room for the title, the tick labels and the axis names.
const LEFT: f64 = 86.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 44.0;
const BOTTOM: f64 = 56.0;

/// Room between the axis and the first and last epochs, so that their dots are whole.
const PAD: f64 = 10.0;

/// The curves: name, colour, and how to read their values from an epoch.
type Curve = (&'static str, &'static str, fn(&crate::EpochLoss) -> Option<f64>);
const CURVES: [Curve; 2] = [("training", "#1f77b4", |e| e.training), ("validation", "#d62728", |e| e.validation)];

/// About this many grid lines on the loss axis.
const LOSS_TICKS: f64 = 6.0;
/// The most grid lines an axis gets (a guard: a nice step gives about `LOSS_TICKS` on the
/// loss axis and 10 on the epochs').
const MAX_TICKS: usize = 40;

impl LossHistory {
    /// The losses as an SVG picture titled `title`: the training and the validation loss
    /// against the epoch, each a line with a dot per epoch; a curve with no values is left
    /// out (a history read from a record may hold the validation losses alone). The text
    /// depends only on the history and the title.
    ///
    /// ```
    /// use cutoff_train::LossHistory;
    ///
    /// let history = LossHistory::from_csv("epoch,training,validation\n1,0.0071,0.0068\n2,0.0062,0.0064\n").unwrap();
    /// let svg = history.to_svg("net.nnue");
    /// assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
    /// assert_eq!(svg.matches("<polyline ").count(), 3); // the axes, and a line a curve
    /// ```
    pub fn to_svg(&self, title: &str) -> String {
        let epochs = self.epochs();
        let values: Vec<f64> = epochs
            .iter()
            .flat_map(|e| CURVES.iter().filter_map(move |(_, _, get)| get(e)))
            .filter(|x| x.is_finite())
            .collect();
        let mut svg = String::new();
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="13">"#
        );
        let _ = writeln!(svg, r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#);
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="26" text-anchor="middle" font-size="16">Loss per epoch: {}</text>"#,
            WIDTH / 2.0,
            escape(title)
        );
        let (x0, x1, y0, y1) = (LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, TOP);
        let (first, last) = match (epochs.first(), epochs.last()) {
            (Some(f), Some(l)) if l.epoch > f.epoch => (f.epoch as f64, l.epoch as f64),
            (Some(f), _) => (f.epoch as f64 - 1.0, f.epoch as f64 + 1.0),
            _ => (0.0, 1.0),
        };
        let (low, high) = loss_range(&values);
        let x = |epoch: f64| x0 + PAD + (epoch - first) / (last - first) * (x1 - x0 - 2.0 * PAD);
        let y = |loss: f64| y0 - (loss - low) / (high - low) * (y0 - y1);

        // The grid and the tick labels.
        let step = nice_step((high - low) / LOSS_TICKS);
        let decimals = (-step.log10().floor()).max(0.0) as usize;
        // Ticks by index, at most `MAX_TICKS`: a step below the values' rounding unit would
        // never move a running sum.
        let start = (low / step).ceil();
        for tick in (0..MAX_TICKS).map(|i| (start + i as f64) * step).take_while(|&t| t <= high + step * 1e-9) {
            let at = y(tick);
            let _ = writeln!(svg, r##"<line x1="{x0:.1}" y1="{at:.1}" x2="{x1:.1}" y2="{at:.1}" stroke="#e0e0e0"/>"##);
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{tick:.decimals$}</text>"#,
                x0 - 6.0,
                at + 4.0
            );
        }
        let epoch_step = nice_step((last - first) / 10.0).max(1.0);
        let start = (first / epoch_step).ceil();
        for epoch in (0..MAX_TICKS).map(|i| (start + i as f64) * epoch_step).take_while(|&e| e <= last + 1e-9) {
            let at = x(epoch);
            let _ = writeln!(svg, r##"<line x1="{at:.1}" y1="{y0:.1}" x2="{at:.1}" y2="{y1:.1}" stroke="#f0f0f0"/>"##);
            let _ = writeln!(svg, r#"<text x="{at:.1}" y="{:.1}" text-anchor="middle">{epoch}</text>"#, y0 + 18.0);
        }
        // The axes and their names.
        let _ = writeln!(
            svg,
            r#"<polyline points="{x0:.1},{y1:.1} {x0:.1},{y0:.1} {x1:.1},{y0:.1}" fill="none" stroke="black"/>"#
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">epoch</text>"#,
            (x0 + x1) / 2.0,
            HEIGHT - 14.0
        );
        let _ = writeln!(
            svg,
            r#"<text x="18" y="{:.1}" text-anchor="middle" transform="rotate(-90 18 {:.1})">loss</text>"#,
            (y0 + y1) / 2.0,
            (y0 + y1) / 2.0
        );

        // The curves, and a legend entry for each one drawn.
        let mut legend = 0;
        for (name, colour, get) in CURVES {
            let points: Vec<(f64, f64)> = epochs
                .iter()
                .filter_map(|e| get(e).filter(|v| v.is_finite()).map(|v| (x(e.epoch as f64), y(v))))
                .collect();
            if points.is_empty() {
                continue;
            }
            let line: Vec<String> = points.iter().map(|(px, py)| format!("{px:.1},{py:.1}")).collect();
            let _ = writeln!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
                line.join(" ")
            );
            for (px, py) in &points {
                let _ = writeln!(svg, r#"<circle cx="{px:.1}" cy="{py:.1}" r="3" fill="{colour}"/>"#);
            }
            let (lx, ly) = (x1 - 130.0, y1 + 18.0 + 20.0 * f64::from(legend));
            let _ = writeln!(
                svg,
                r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="2"/>"#,
                lx + 24.0
            );
            let _ = writeln!(svg, r#"<text x="{:.1}" y="{:.1}">{name}</text>"#, lx + 30.0, ly + 4.0);
            legend += 1;
        }
        if legend == 0 {
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">no losses recorded</text>"#,
                (x0 + x1) / 2.0,
                (y0 + y1) / 2.0
            );
        }
        svg.push_str("</svg>\n");
        svg
    }
}

/// The loss axis: the values' range with a margin of a twentieth on each side, and a small
/// range around a single value (or around 0 without any).
fn loss_range(values: &[f64]) -> (f64, f64) {
    let low = values.iter().copied().fold(f64::INFINITY, f64::min);
    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !low.is_finite() {
        return (0.0, 1.0);
    }
    let margin = if high > low { (high - low) / 20.0 } else { low.abs().max(1e-6) / 10.0 };
    (low - margin, high + margin)
}

/// The step of 1, 2 or 5 times a power of ten nearest above `rough`.
fn nice_step(rough: f64) -> f64 {
    if !(rough > 0.0 && rough.is_finite()) {
        return 1.0;
    }
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|&s| s >= rough);
    step.unwrap_or(10.0 * power)
}

/// Text made safe for an SVG text node.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EpochLoss;

    /// Whether `svg` is well-formed XML as far as this writer's output goes: every tag opened
    /// is closed in order, attributes are quoted, and text holds no bare `<` or `&`.
    pub(crate) fn well_formed(svg: &str) -> bool {
        let mut open: Vec<&str> = Vec::new();
        let mut rest = svg.trim();
        while !rest.is_empty() {
            if let Some(tag) = rest.strip_prefix('<') {
                let Some(end) = tag.find('>') else { return false };
                let inner = &tag[..end];
                rest = &tag[end + 1..];
                if let Some(name) = inner.strip_prefix('/') {
                    if open.pop() != Some(name.trim()) {
                        return false;
                    }
                    continue;
                }
                let closed = inner.ends_with('/');
                let inner = inner.trim_end_matches('/');
                let name = inner.split_whitespace().next().unwrap_or("");
                if name.is_empty() || inner.matches('"').count() % 2 != 0 {
                    return false;
                }
                if !closed {
                    open.push(name);
                }
            } else {
                let end = rest.find('<').unwrap_or(rest.len());
                let text = &rest[..end];
                if open.is_empty() && !text.trim().is_empty() {
                    return false;
                }
                if text.split('&').skip(1).any(|t| !["amp;", "lt;", "gt;", "quot;"].iter().any(|e| t.starts_with(e))) {
                    return false;
                }
                rest = &rest[end..];
            }
        }
        open.is_empty()
    }

    #[test]
    fn the_picture_is_well_formed_with_a_curve_per_loss_recorded() {
        let mut history = LossHistory::default();
        for epoch in 1..=16 {
            let validation = (epoch != 3).then_some(0.0054 - 0.00004 * epoch as f64);
            history.push(EpochLoss { epoch, training: Some(0.006 / epoch as f64), validation, lr: None });
        }
        let svg = history.to_svg("a <title> & more");
        assert!(well_formed(&svg), "{svg}");
        assert_eq!(svg.matches("<polyline ").count(), 3, "the axes and two curves");
        assert_eq!(svg.matches("<circle ").count(), 16 + 15, "a dot per value recorded");
        assert!(svg.contains("a &lt;title&gt; &amp; more"));
        assert!(svg.contains(">training</text>") && svg.contains(">validation</text>"));
        // A history of validation losses alone draws that curve alone.
        let text: String = (1..=4).map(|e| format!("{e},{}\n", 0.005 - 0.0001 * e as f64)).collect::<String>();
        let validation =
            LossHistory::from_csv(&format!("epoch,training,validation\n{}", text.replace(',', ",,"))).unwrap();
        let svg = validation.to_svg("v");
        assert!(well_formed(&svg));
        assert_eq!(svg.matches("<polyline ").count(), 2);
        assert!(!svg.contains(">training</text>"));
        // One epoch, and none.
        let mut one = LossHistory::default();
        one.push(EpochLoss { epoch: 1, training: Some(0.01), validation: Some(0.01), lr: Some(0.001) });
        assert!(well_formed(&one.to_svg("one")));
        let none = LossHistory::default().to_svg("none");
        assert!(well_formed(&none) && none.contains("no losses recorded"));
        assert!(!well_formed("<svg><text>a < b</text></svg>") && !well_formed("<svg><g></svg>"));
    }

    #[test]
    fn values_closer_than_their_rounding_still_draw() {
        // Steps below the values' rounding unit, and epochs equal as floats: a bounded grid.
        for csv in [
            "epoch,training\n1,10000000000\n2,10000000000.000002\n",
            "epoch,training\n1152921504606846976,1\n1152921504606846977,2\n",
        ] {
            let svg = LossHistory::from_csv(csv).unwrap().to_svg("close");
            assert!(svg.matches("<line ").count() <= 2 * MAX_TICKS, "{svg}");
        }
    }

    #[test]
    fn ticks_are_one_two_or_five_times_a_power_of_ten() {
        for (rough, step) in [(0.00013, 0.0002), (0.0004, 0.0005), (0.7, 1.0), (1.6, 2.0), (0.0, 1.0), (f64::NAN, 1.0)]
        {
            assert!((nice_step(rough) - step).abs() < 1e-12 * step, "{rough}: {}", nice_step(rough));
        }
    }
}
