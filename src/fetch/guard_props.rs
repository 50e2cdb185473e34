//! Property tests of the address guard: whatever form an IP literal takes in a URL, a
//! loopback, private, link-local, metadata or otherwise internal address never passes
//! `check_url` while private networks are not allowed. The reference is the standard
//! library's own classification of `std::net` addresses, not the guard's table.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;
use url::Url;

use super::guard::{Guard, UrlRefusal};
use crate::settings::Settings;

/// Cases per property; `PROPTEST_CASES` runs more (e.g. 100000 for a long soak).
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn strict() -> Guard {
    Guard::from_settings(&Settings::defaults().fetch).unwrap()
}

/// What `std` says must never be fetched from a server: loopback, private, link-local (the
/// metadata service's range), unspecified, broadcast, multicast, documentation.
fn std_says_internal_v4(ip: Ipv4Addr) -> bool {
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
}

fn std_says_internal_v6(ip: Ipv6Addr) -> bool {
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || ip.is_unique_local()
        || ip.is_unicast_link_local()
        || ip.to_ipv4_mapped().is_some_and(std_says_internal_v4)
}

/// An IPv4 address, biased towards the internal ranges so they are hit often.
fn ipv4() -> impl Strategy<Value = Ipv4Addr> {
    prop_oneof![
        any::<u32>().prop_map(Ipv4Addr::from),
        (
            prop::sample::select(vec![0u8, 10, 127, 169, 172, 192, 198, 203, 224, 255]),
            any::<[u8; 3]>()
        )
            .prop_map(|(a, [b, c, d])| Ipv4Addr::new(a, b, c, d)),
        Just(Ipv4Addr::new(169, 254, 169, 254)),
    ]
}

/// An IPv6 address, biased towards internal ranges and IPv4 embedded in IPv6.
fn ipv6() -> impl Strategy<Value = Ipv6Addr> {
    prop_oneof![
        any::<u128>().prop_map(Ipv6Addr::from),
        ipv4().prop_map(|v4| v4.to_ipv6_mapped()),
        ipv4().prop_map(|v4| v4.to_ipv6_compatible()),
        (
            prop::sample::select(vec![0u16, 0xfe80, 0xfc00, 0xfd00, 0xff02, 0x64, 0x2002]),
            any::<[u16; 7]>()
        )
            .prop_map(|(first, rest)| {
                let mut segments = [first; 8];
                segments[1..].copy_from_slice(&rest);
                Ipv6Addr::from(segments)
            }),
        Just(Ipv6Addr::LOCALHOST),
        Just(Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254)),
    ]
}

/// The ways a URL can spell an IPv4 address that the URL parser reads as that address:
/// dotted decimal, one integer, hexadecimal and octal parts, and the short `a.b` form.
fn spell_v4(ip: Ipv4Addr, form: u8) -> String {
    let [a, b, c, d] = ip.octets();
    let n = u32::from(ip);
    match form % 6 {
        0 => ip.to_string(),
        1 => n.to_string(),
        2 => format!("0x{n:x}"),
        3 => format!("0{a:o}.0{b:o}.0{c:o}.0{d:o}"),
        4 => format!("{a}.{}", n & 0x00ff_ffff),
        _ => format!("0x{a:x}.{b}.0x{c:X}.{d}"),
    }
}

fn blocked(guard: &Guard, url: &str) -> bool {
    let url = Url::parse(url).unwrap();
    matches!(guard.check_url(&url), Err(UrlRefusal::Blocked(_)))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn no_internal_ipv4_passes_in_any_spelling(ip in ipv4(), form in any::<u8>(), port in prop::option::of(1u16..)) {
        let host = spell_v4(ip, form);
        let url = match port {
            Some(port) => format!("http://{host}:{port}/x"),
            None => format!("https://{host}/x"),
        };
        // The URL parser must read the spelling as the same address, or the test is moot.
        let parsed = Url::parse(&url).unwrap();
        prop_assert_eq!(parsed.host(), Some(url::Host::Ipv4(ip)));
        let guard = strict();
        if std_says_internal_v4(ip) {
            prop_assert!(blocked(&guard, &url), "{} ({}) passed", url, ip);
        }
        prop_assert_eq!(guard.refusal(IpAddr::V4(ip), None).is_none(), !blocked(&guard, &url));
    }

    #[test]
    fn no_internal_ipv6_passes(ip in ipv6()) {
        let url = format!("http://[{ip}]/");
        let guard = strict();
        if std_says_internal_v6(ip) {
            prop_assert!(blocked(&guard, &url), "{} passed", url);
        }
        // Whatever the guard refuses on the resolved address, it refuses as a literal too.
        prop_assert_eq!(guard.refusal(IpAddr::V6(ip), None).is_none(), !blocked(&guard, &url));
    }

    #[test]
    fn arbitrary_url_text_never_panics_the_guard(text in "\\PC{0,80}", host in "[a-z0-9.:\\[\\]%-]{0,40}") {
        let guard = strict();
        for candidate in [text.clone(), format!("http://{host}/"), format!("http://{host}:80/{text}")] {
            if let Ok(url) = Url::parse(&candidate) {
                let _ = guard.check_url(&url);
            }
        }
    }
}
