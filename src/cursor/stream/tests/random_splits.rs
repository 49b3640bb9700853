//! Property: any multi-piece split of any fixture (or of all fixtures back to back) gives the
//! same items as one feed.

use super::support as stream_support;

use proptest::prelude::*;
use stream_support::fixtures;
use stream_support::parse;
use stream_support::parse_pieces;
use stream_support::split_at_cuts;

fn cuts_for(len: usize, raw: Vec<usize>) -> Vec<usize> {
    let mut cuts: Vec<usize> = raw.into_iter().map(|c| c % (len + 1)).collect();
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_splits_of_one_fixture(index in 0usize..64, raw in prop::collection::vec(any::<usize>(), 0..40)) {
        let all = fixtures();
        let (name, bytes) = &all[index % all.len()];
        let cuts = cuts_for(bytes.len(), raw);
        let pieces = split_at_cuts(bytes, &cuts);
        prop_assert_eq!(parse_pieces(pieces), parse(bytes), "{} cut at {:?}", name, cuts);
    }

    #[test]
    fn random_splits_of_all_fixtures_back_to_back(raw in prop::collection::vec(any::<usize>(), 0..80)) {
        let stream: Vec<u8> = fixtures().into_iter().flat_map(|(_, bytes)| bytes).collect();
        let cuts = cuts_for(stream.len(), raw);
        let pieces = split_at_cuts(&stream, &cuts);
        prop_assert_eq!(parse_pieces(pieces), parse(&stream), "cut at {:?}", cuts);
    }
}
