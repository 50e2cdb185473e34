//! The address guard: which IPs the fetcher may connect to.
//!
//! Checked on the *resolved* address (a DNS resolver that drops refused IPs, or, behind a
//! configured proxy, an explicit resolution of every hop before the proxy is asked) and on
//! IP-literal hosts of every redirect hop, so neither DNS tricks nor redirects reach internal
//! services.
//!
//! What is refused is one table, [`SPECIAL_RANGES`]: every block the IANA IPv4 and IPv6
//! special-purpose address registries mark as not globally reachable, the deprecated and
//! translation blocks that embed an IPv4 address (a refused IPv4 address must not come back in
//! IPv6 clothing), multicast, and — for IPv6 — anything outside global unicast `2000::/3`.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

use crate::settings::FetchSettings;

/// One refused block of addresses, with the name the refusal message gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpecialRange {
    /// First address of the block.
    pub network: IpAddr,
    /// Prefix length in bits.
    pub prefix_len: u8,
    /// What the block is, for people.
    pub name: &'static str,
}

const fn v4(a: u8, b: u8, c: u8, d: u8, prefix_len: u8, name: &'static str) -> SpecialRange {
    SpecialRange {
        network: IpAddr::V4(Ipv4Addr::new(a, b, c, d)),
        prefix_len,
        name,
    }
}

const fn v6(s: [u16; 8], prefix_len: u8, name: &'static str) -> SpecialRange {
    SpecialRange {
        network: IpAddr::V6(Ipv6Addr::new(
            s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7],
        )),
        prefix_len,
        name,
    }
}

/// Every refused block. The first match names the refusal, so a more specific block comes
/// before the block that contains it.
pub const SPECIAL_RANGES: &[SpecialRange] = &[
    // IPv4 (IANA IPv4 Special-Purpose Address Registry, RFC 6890 and updates).
    v4(0, 0, 0, 0, 8, "\"this network\""),
    v4(10, 0, 0, 0, 8, "private-use"),
    v4(
        100,
        64,
        0,
        0,
        10,
        "shared address space (carrier-grade NAT)",
    ),
    v4(127, 0, 0, 0, 8, "loopback"),
    v4(169, 254, 169, 254, 32, "cloud metadata service"),
    v4(169, 254, 0, 0, 16, "link-local"),
    v4(172, 16, 0, 0, 12, "private-use"),
    v4(
        192,
        0,
        0,
        0,
        24,
        "IETF protocol assignments (DS-Lite, NAT64 discovery, …)",
    ),
    v4(192, 0, 2, 0, 24, "documentation (TEST-NET-1)"),
    v4(192, 88, 99, 0, 24, "6to4 relay anycast (deprecated)"),
    v4(192, 168, 0, 0, 16, "private-use"),
    v4(198, 18, 0, 0, 15, "benchmarking"),
    v4(198, 51, 100, 0, 24, "documentation (TEST-NET-2)"),
    v4(203, 0, 113, 0, 24, "documentation (TEST-NET-3)"),
    v4(224, 0, 0, 0, 4, "multicast"),
    v4(255, 255, 255, 255, 32, "limited broadcast"),
    v4(240, 0, 0, 0, 4, "reserved"),
    // IPv6 (IANA IPv6 Special-Purpose Address Registry).
    v6([0, 0, 0, 0, 0, 0, 0, 0], 128, "unspecified"),
    v6([0, 0, 0, 0, 0, 0, 0, 1], 128, "loopback"),
    v6([0, 0, 0, 0, 0, 0xffff, 0, 0], 96, "IPv4-mapped"),
    v6([0, 0, 0, 0, 0, 0, 0, 0], 96, "IPv4-compatible (deprecated)"),
    v6(
        [0x64, 0xff9b, 0, 0, 0, 0, 0, 0],
        96,
        "NAT64 well-known prefix",
    ),
    v6([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48, "NAT64 local-use"),
    v6([0x100, 0, 0, 0, 0, 0, 0, 0], 64, "discard-only"),
    v6([0x100, 0, 0, 1, 0, 0, 0, 0], 64, "dummy prefix"),
    v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 32, "Teredo"),
    v6([0x2001, 2, 0, 0, 0, 0, 0, 0], 48, "benchmarking"),
    v6(
        [0x2001, 0, 0, 0, 0, 0, 0, 0],
        23,
        "IETF protocol assignments",
    ),
    v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32, "documentation"),
    v6([0x2002, 0, 0, 0, 0, 0, 0, 0], 16, "6to4"),
    v6([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20, "documentation"),
    v6(
        [0x5f00, 0, 0, 0, 0, 0, 0, 0],
        16,
        "segment routing (SRv6) SIDs",
    ),
    v6(
        [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254],
        128,
        "cloud metadata service",
    ),
    v6([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, "unique local"),
    v6([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, "link-local"),
    v6([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, "site-local (deprecated)"),
    v6([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, "multicast"),
];

/// IPv6 outside global unicast `2000::/3` that no entry above names (unassigned space).
pub const NOT_GLOBAL_UNICAST: SpecialRange = SpecialRange {
    network: IpAddr::V6(Ipv6Addr::UNSPECIFIED),
    prefix_len: 0,
    name: "outside IPv6 global unicast 2000::/3",
};

impl SpecialRange {
    /// Whether `ip` is inside this block (an IPv4 block never contains an IPv6 address).
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.network, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix_len))
                    .unwrap_or(0);
                (u32::from(net) ^ u32::from(ip)) & mask == 0
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix_len))
                    .unwrap_or(0);
                (u128::from(net) ^ u128::from(ip)) & mask == 0
            }
            _ => false,
        }
    }
}

impl fmt::Display for SpecialRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.prefix_len == 0 {
            return f.write_str(self.name);
        }
        write!(f, "{}/{} ({})", self.network, self.prefix_len, self.name)
    }
}

/// The refused block `ip` is in, if any (ignores every allowance).
pub fn refused_range(ip: IpAddr) -> Option<&'static SpecialRange> {
    if let Some(range) = SPECIAL_RANGES.iter().find(|range| range.contains(ip)) {
        return Some(range);
    }
    match ip {
        IpAddr::V6(v6) if v6.segments()[0] & 0xe000 != 0x2000 => Some(&NOT_GLOBAL_UNICAST),
        _ => None,
    }
}

/// Whether an address is in any refused block (loopback, private, link-local, metadata,
/// translation, documentation, multicast, reserved, …).
pub fn is_internal(ip: IpAddr) -> bool {
    refused_range(ip).is_some()
}

/// Why a URL is refused before any connection is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlRefusal {
    /// Not http or https, or no host.
    Invalid(String),
    /// An address (literal or resolved) in refused space.
    Blocked(String),
}

/// Why a host name gave no address to connect to.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// Every address of the name is refused.
    #[error("{name} resolves to refused addresses only ({why})")]
    OnlyRefused {
        /// The name.
        name: String,
        /// The first refusal.
        why: String,
    },
    /// One address is refused and the proxy, not we, would pick the address.
    #[error(
        "{name} resolves to refused addresses ({why}; behind a proxy one is enough, as the proxy picks the address)"
    )]
    SomeRefused {
        /// The name.
        name: String,
        /// The first refusal.
        why: String,
    },
    /// The name has no address.
    #[error("{0} has no address")]
    NoAddress(String),
    /// The lookup failed.
    #[error(transparent)]
    Lookup(#[from] std::io::Error),
}

impl ResolveError {
    /// Whether the guard refused the name (rather than the lookup failing).
    pub fn is_refusal(&self) -> bool {
        matches!(self, Self::OnlyRefused { .. } | Self::SomeRefused { .. })
    }
}

/// The address rules of one fetcher: the refused ranges, the switch that turns them off, exact
/// exceptions, and static name → address answers.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    allow_private: bool,
    allowed_ips: HashSet<IpAddr>,
    allowed_names: HashSet<String>,
    overrides: HashMap<String, Vec<IpAddr>>,
}

/// A host name as compared and looked up: lower case, without a trailing dot.
fn normal_name(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

impl Guard {
    /// The rules of `fetch.allow_private_networks`, `fetch.allowed_hosts` and `fetch.resolve`.
    ///
    /// # Errors
    /// A `resolve` entry that is not `name=address`.
    pub fn from_settings(settings: &FetchSettings) -> Result<Self, String> {
        let mut guard = Self {
            allow_private: settings.allow_private_networks,
            ..Self::default()
        };
        for entry in &settings.allowed_hosts {
            let entry = entry.trim().trim_start_matches('[').trim_end_matches(']');
            match entry.parse::<IpAddr>() {
                Ok(ip) => {
                    guard.allowed_ips.insert(ip);
                }
                Err(_) if !entry.is_empty() => {
                    guard.allowed_names.insert(normal_name(entry));
                }
                Err(_) => {}
            }
        }
        for entry in &settings.resolve {
            let (name, addr) = entry
                .split_once('=')
                .ok_or_else(|| format!("fetch.resolve entry `{entry}` is not name=address"))?;
            let addr = addr.trim().trim_start_matches('[').trim_end_matches(']');
            let ip = addr
                .parse::<IpAddr>()
                .map_err(|e| format!("fetch.resolve entry `{entry}`: `{addr}`: {e}"))?;
            guard
                .overrides
                .entry(normal_name(name.trim()))
                .or_default()
                .push(ip);
        }
        Ok(guard)
    }

    /// The same rules with one more exempt host name (the configured proxy's).
    pub fn allowing_name(&self, name: &str) -> Self {
        let mut guard = self.clone();
        if !name.is_empty() {
            guard.allowed_names.insert(normal_name(name));
        }
        guard
    }

    /// Whether every address is allowed (`fetch.allow_private_networks`).
    pub fn allows_private(&self) -> bool {
        self.allow_private
    }

    /// Why `ip`, reached through host `name` if any, is refused; `None` when it may be used.
    pub fn refusal(&self, ip: IpAddr, name: Option<&str>) -> Option<String> {
        if self.allow_private || self.allowed_ips.contains(&ip) {
            return None;
        }
        if name.is_some_and(|n| self.allowed_names.contains(&normal_name(n))) {
            return None;
        }
        refused_range(ip).map(|range| format!("{ip} is in {range}"))
    }

    /// Checks scheme and host of a URL (IP literals only; names are checked when resolved).
    ///
    /// # Errors
    /// The refusal, with a message for the client.
    pub fn check_url(&self, url: &Url) -> Result<(), UrlRefusal> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(UrlRefusal::Invalid(format!(
                "only http and https URLs can be fetched, not `{}`",
                url.scheme()
            )));
        }
        let ip = match url.host() {
            None => return Err(UrlRefusal::Invalid("the URL has no host".into())),
            Some(Host::Ipv4(v4)) => IpAddr::V4(v4),
            Some(Host::Ipv6(v6)) => IpAddr::V6(v6),
            Some(Host::Domain(name)) => {
                let name = normal_name(name);
                if !self.allow_private
                    && !self.allowed_names.contains(&name)
                    && (name == "localhost" || name.ends_with(".localhost"))
                {
                    return Err(UrlRefusal::Blocked(format!("`{name}` is a loopback name")));
                }
                return Ok(());
            }
        };
        match self.refusal(ip, None) {
            Some(why) => Err(UrlRefusal::Blocked(format!("{why}: refused"))),
            None => Ok(()),
        }
    }

    /// The addresses of `name`: from `fetch.resolve` when listed there, else from the system
    /// resolver.
    ///
    /// # Errors
    /// The lookup failed.
    pub async fn lookup(&self, name: &str) -> std::io::Result<Vec<SocketAddr>> {
        if let Some(ips) = self.overrides.get(&normal_name(name)) {
            return Ok(ips.iter().map(|ip| SocketAddr::new(*ip, 0)).collect());
        }
        Ok(tokio::net::lookup_host((name, 0)).await?.collect())
    }

    /// Resolves `name` and drops refused addresses; with `every` set, one refused address
    /// refuses the name (a proxy, not we, picks the address it connects to).
    ///
    /// # Errors
    /// The lookup failed, or nothing usable is left (see [`ResolveError::is_refusal`]).
    pub async fn resolve(&self, name: &str, every: bool) -> Result<Vec<SocketAddr>, ResolveError> {
        let resolved = self.lookup(name).await?;
        let mut kept = Vec::with_capacity(resolved.len());
        let mut first_refusal = None;
        for addr in resolved {
            match self.refusal(addr.ip(), Some(name)) {
                None => kept.push(addr),
                Some(why) => {
                    first_refusal.get_or_insert(why);
                }
            }
        }
        let name = name.to_owned();
        match first_refusal {
            Some(why) if every && !kept.is_empty() => Err(ResolveError::SomeRefused {
                name,
                why: why.to_string(),
            }),
            Some(why) if kept.is_empty() => Err(ResolveError::OnlyRefused {
                name,
                why: why.to_string(),
            }),
            _ if kept.is_empty() => Err(ResolveError::NoAddress(name)),
            _ => Ok(kept),
        }
    }
}

/// A DNS resolver that drops refused addresses; the HTTP client connects only to what is left.
#[derive(Debug, Clone)]
pub struct GuardedResolver {
    /// The rules.
    pub guard: Arc<Guard>,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let guard = self.guard.clone();
        Box::pin(async move {
            let kept = guard
                .resolve(name.as_str(), false)
                .await
                .map_err(|err| -> Box<dyn std::error::Error + Send + Sync> { Box::new(err) })?;
            let addrs: Addrs = Box::new(kept.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn last_address(range: &SpecialRange) -> IpAddr {
        match range.network {
            IpAddr::V4(net) => {
                let host = u32::MAX
                    .checked_shr(u32::from(range.prefix_len))
                    .unwrap_or(0);
                IpAddr::V4(Ipv4Addr::from(u32::from(net) | host))
            }
            IpAddr::V6(net) => {
                let host = u128::MAX
                    .checked_shr(u32::from(range.prefix_len))
                    .unwrap_or(0);
                IpAddr::V6(Ipv6Addr::from(u128::from(net) | host))
            }
        }
    }

    #[test]
    fn every_range_is_refused_from_its_first_to_its_last_address() {
        for range in SPECIAL_RANGES {
            let host_bits = match range.network {
                IpAddr::V4(net) => {
                    assert!(range.prefix_len <= 32);
                    u32::from(net)
                        .checked_shl(u32::from(range.prefix_len))
                        .unwrap_or(0)
                        == 0
                }
                IpAddr::V6(net) => {
                    assert!(range.prefix_len <= 128);
                    u128::from(net)
                        .checked_shl(u32::from(range.prefix_len))
                        .unwrap_or(0)
                        == 0
                }
            };
            assert!(host_bits, "{range}: the network address has host bits set");
            for edge in [range.network, last_address(range)] {
                assert!(range.contains(edge), "{range} contains {edge}");
                assert!(is_internal(edge), "{edge} ({range}) must be refused");
            }
        }
    }

    /// Each range's edges and neighbours: the range that names the refusal, or `None` for an
    /// address that must pass.
    #[test]
    fn ranges_edges_and_public_neighbours() {
        let cases: &[(&str, Option<&str>)] = &[
            // IPv4
            ("0.0.0.0", Some("0.0.0.0/8")),
            ("0.255.255.255", Some("0.0.0.0/8")),
            ("1.0.0.0", None),
            ("9.255.255.255", None),
            ("10.0.0.0", Some("10.0.0.0/8")),
            ("10.255.255.255", Some("10.0.0.0/8")),
            ("11.0.0.0", None),
            ("100.63.255.255", None),
            ("100.64.0.0", Some("100.64.0.0/10")),
            ("100.127.255.255", Some("100.64.0.0/10")),
            ("100.128.0.0", None),
            ("126.255.255.255", None),
            ("127.0.0.1", Some("127.0.0.0/8")),
            ("127.255.255.255", Some("127.0.0.0/8")),
            ("128.0.0.0", None),
            ("169.253.255.255", None),
            ("169.254.0.0", Some("169.254.0.0/16")),
            ("169.254.169.254", Some("169.254.169.254/32")),
            ("169.254.255.255", Some("169.254.0.0/16")),
            ("169.255.0.0", None),
            ("172.15.255.255", None),
            ("172.16.0.0", Some("172.16.0.0/12")),
            ("172.31.255.255", Some("172.16.0.0/12")),
            ("172.32.0.0", None),
            ("191.255.255.255", None),
            ("192.0.0.0", Some("192.0.0.0/24")),
            ("192.0.0.170", Some("192.0.0.0/24")),
            ("192.0.0.255", Some("192.0.0.0/24")),
            ("192.0.1.0", None),
            ("192.0.2.0", Some("192.0.2.0/24")),
            ("192.0.2.255", Some("192.0.2.0/24")),
            ("192.0.3.0", None),
            ("192.88.98.255", None),
            ("192.88.99.1", Some("192.88.99.0/24")),
            ("192.88.100.0", None),
            ("192.167.255.255", None),
            ("192.168.0.0", Some("192.168.0.0/16")),
            ("192.168.255.255", Some("192.168.0.0/16")),
            ("192.169.0.0", None),
            ("198.17.255.255", None),
            ("198.18.0.0", Some("198.18.0.0/15")),
            ("198.19.255.255", Some("198.18.0.0/15")),
            ("198.20.0.0", None),
            ("198.51.99.255", None),
            ("198.51.100.7", Some("198.51.100.0/24")),
            ("198.51.101.0", None),
            ("203.0.112.255", None),
            ("203.0.113.9", Some("203.0.113.0/24")),
            ("203.0.114.0", None),
            ("223.255.255.255", None),
            ("224.0.0.0", Some("224.0.0.0/4")),
            ("239.255.255.255", Some("224.0.0.0/4")),
            ("240.0.0.0", Some("240.0.0.0/4")),
            ("255.255.255.254", Some("240.0.0.0/4")),
            ("255.255.255.255", Some("255.255.255.255/32")),
            ("1.1.1.1", None),
            ("8.8.8.8", None),
            ("93.184.216.34", None),
            // IPv6
            ("::", Some("::/128")),
            ("::1", Some("::1/128")),
            ("::2", Some("::/96")),
            ("::7f00:1", Some("::/96")),
            ("::ffff:ffff", Some("::/96")),
            ("::1:0:0", Some("outside IPv6 global unicast 2000::/3")),
            ("::ffff:0.0.0.0", Some("::ffff:0.0.0.0/96")),
            ("::ffff:127.0.0.1", Some("::ffff:0.0.0.0/96")),
            ("::ffff:8.8.8.8", Some("::ffff:0.0.0.0/96")),
            ("::ffff:255.255.255.255", Some("::ffff:0.0.0.0/96")),
            ("64:ff9b::", Some("64:ff9b::/96")),
            ("64:ff9b::a9fe:a9fe", Some("64:ff9b::/96")),
            ("64:ff9b::ffff:ffff", Some("64:ff9b::/96")),
            ("64:ff9b:1::", Some("64:ff9b:1::/48")),
            ("64:ff9b:1:ffff:ffff:ffff:ffff:ffff", Some("64:ff9b:1::/48")),
            ("100::", Some("100::/64")),
            ("100::ffff:ffff:ffff:ffff", Some("100::/64")),
            ("100:0:0:1::", Some("100:0:0:1::/64")),
            ("2001::", Some("2001::/32")),
            ("2001:0:ffff:ffff:ffff:ffff:ffff:ffff", Some("2001::/32")),
            ("2001:2::1", Some("2001:2::/48")),
            ("2001:10::1", Some("2001::/23")),
            ("2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", Some("2001::/23")),
            ("2001:200::", None),
            ("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", None),
            ("2001:db8::", Some("2001:db8::/32")),
            (
                "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
                Some("2001:db8::/32"),
            ),
            ("2001:db9::", None),
            ("2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff", None),
            ("2002::", Some("2002::/16")),
            ("2002:7f00:1::", Some("2002::/16")),
            ("2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff", Some("2002::/16")),
            ("2003::", None),
            ("3ffe:ffff::", None),
            ("3fff::", Some("3fff::/20")),
            ("3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", Some("3fff::/20")),
            ("3fff:1000::", None),
            ("5eff:ffff::", Some("outside IPv6 global unicast 2000::/3")),
            ("5f00::1", Some("5f00::/16")),
            ("5f01::", Some("outside IPv6 global unicast 2000::/3")),
            (
                "1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                Some("outside IPv6 global unicast 2000::/3"),
            ),
            ("4000::", Some("outside IPv6 global unicast 2000::/3")),
            (
                "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                Some("outside IPv6 global unicast 2000::/3"),
            ),
            ("fc00::", Some("fc00::/7")),
            ("fd00:ec2::254", Some("fd00:ec2::254/128")),
            ("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", Some("fc00::/7")),
            ("fe80::", Some("fe80::/10")),
            ("febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", Some("fe80::/10")),
            ("fec0::", Some("fec0::/10")),
            ("feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", Some("fec0::/10")),
            ("ff00::", Some("ff00::/8")),
            ("ff02::1", Some("ff00::/8")),
            ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", Some("ff00::/8")),
            ("2606:4700::1111", None),
            ("2001:4860:4860::8888", None),
            ("2a00:1450:4001::200e", None),
        ];
        for (addr, want) in cases {
            let got = refused_range(ip(addr)).map(|range| {
                if range.prefix_len == 0 {
                    range.name.to_owned()
                } else {
                    format!("{}/{}", range.network, range.prefix_len)
                }
            });
            assert_eq!(got.as_deref(), *want, "{addr}");
        }
    }

    fn guard(allow_private: bool, allowed: &[&str], resolve: &[&str]) -> Guard {
        let mut settings = crate::settings::Settings::defaults().fetch;
        settings.allow_private_networks = allow_private;
        settings.allowed_hosts = allowed.iter().map(|s| (*s).to_owned()).collect();
        settings.resolve = resolve.iter().map(|s| (*s).to_owned()).collect();
        Guard::from_settings(&settings).unwrap()
    }

    #[test]
    fn url_checks_scheme_and_literal_hosts() {
        let strict = guard(false, &[], &[]);
        let open = guard(true, &[], &[]);
        let check = |g: &Guard, u: &str| g.check_url(&Url::parse(u).unwrap());
        assert!(matches!(
            check(&strict, "ftp://example.com/"),
            Err(UrlRefusal::Invalid(_))
        ));
        assert!(matches!(
            check(&strict, "http://127.0.0.1:8080/"),
            Err(UrlRefusal::Blocked(_))
        ));
        assert!(matches!(
            check(&strict, "http://localhost/"),
            Err(UrlRefusal::Blocked(_))
        ));
        assert!(matches!(
            check(&strict, "http://LocalHost./"),
            Err(UrlRefusal::Blocked(_))
        ));
        assert!(matches!(
            check(&strict, "http://[::1]/"),
            Err(UrlRefusal::Blocked(_))
        ));
        // Numeric forms a browser accepts are IPv4 literals too.
        assert!(matches!(
            check(&strict, "http://0x7f.1/"),
            Err(UrlRefusal::Blocked(_))
        ));
        assert!(matches!(
            check(&strict, "http://2130706433/"),
            Err(UrlRefusal::Blocked(_))
        ));
        let Err(UrlRefusal::Blocked(message)) = check(&strict, "http://[64:ff9b::7f00:1]/") else {
            panic!("NAT64 refused");
        };
        assert!(
            message.contains("64:ff9b::/96 (NAT64 well-known prefix)"),
            "{message}"
        );
        assert!(check(&open, "http://127.0.0.1:8080/").is_ok());
        assert!(check(&strict, "https://example.com/a").is_ok());
    }

    #[test]
    fn allowed_hosts_are_exact_exceptions() {
        let g = guard(false, &["127.0.0.1", "[::1]", "intranet.example"], &[]);
        let check = |u: &str| g.check_url(&Url::parse(u).unwrap());
        assert!(check("http://127.0.0.1:8080/").is_ok());
        assert!(check("http://[::1]:8080/").is_ok());
        assert!(
            check("http://127.0.0.2/").is_err(),
            "only the exact address"
        );
        assert!(check("http://10.0.0.1/").is_err());
        assert!(check("http://[::ffff:127.0.0.1]/").is_err());
        assert!(
            g.refusal(ip("10.0.0.1"), Some("intranet.example"))
                .is_none()
        );
        assert!(
            g.refusal(ip("10.0.0.1"), Some("INTRANET.example."))
                .is_none()
        );
        assert!(g.refusal(ip("10.0.0.1"), Some("other.example")).is_some());
        assert!(g.refusal(ip("127.0.0.1"), Some("other.example")).is_none());
    }

    #[tokio::test]
    async fn resolution_drops_refused_addresses_or_refuses_the_name() {
        let g = guard(
            false,
            &[],
            &[
                "mixed.test=93.184.216.34",
                "mixed.test=127.0.0.1",
                "loop.test=127.0.0.1",
                "loop.test= ::1",
                "public.test=[2606:4700::1111]",
            ],
        );
        let kept = g.resolve("mixed.test", false).await.unwrap();
        assert_eq!(kept, vec![SocketAddr::new(ip("93.184.216.34"), 0)]);
        let every = g.resolve("mixed.test", true).await.unwrap_err().to_string();
        assert!(every.contains("resolves to refused addresses"), "{every}");
        assert!(every.contains("127.0.0.0/8 (loopback)"), "{every}");
        let only = g
            .resolve("LOOP.test.", false)
            .await
            .unwrap_err()
            .to_string();
        assert!(
            only.contains("resolves to refused addresses only"),
            "{only}"
        );
        assert!(g.resolve("public.test", true).await.is_ok());
        assert!(
            guard(true, &[], &["loop.test=127.0.0.1"])
                .resolve("loop.test", true)
                .await
                .is_ok()
        );
    }

    #[test]
    fn bad_resolve_entries_are_refused_at_start() {
        let mut settings = crate::settings::Settings::defaults().fetch;
        settings.resolve = vec!["no-address".into()];
        assert!(Guard::from_settings(&settings).is_err());
        settings.resolve = vec!["a.test=not-an-ip".into()];
        assert!(Guard::from_settings(&settings).is_err());
    }
}
