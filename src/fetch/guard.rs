//! The address guard: which IPs the fetcher may connect to.
//!
//! Checked on the *resolved* address (a DNS resolver that drops refused IPs) and on IP-literal
//! hosts of every redirect hop, so neither DNS tricks nor redirects reach internal services.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

/// Whether an address is loopback, private, link-local, CGNAT, multicast, unspecified,
/// documentation/benchmark space or a cloud metadata address.
pub fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_internal_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_internal_v4(v4);
            }
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00 // unique local fc00::/7
                || (first & 0xffc0) == 0xfe80 // link-local fe80::/10
                || (first == 0x2001 && v6.segments()[1] == 0x0db8) // documentation
                || v6 == Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254) // AWS IMDS over v6
        }
    }
}

fn is_internal_v4(ip: Ipv4Addr) -> bool {
    let [a, b, _, _] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local() // includes 169.254.169.254, the metadata address
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..=127).contains(&b)) // CGNAT 100.64.0.0/10
        || (a == 198 && (b == 18 || b == 19)) // benchmarking 198.18.0.0/15
        || a >= 240 // reserved
}

/// Why a URL is refused before any connection is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlRefusal {
    /// Not http or https, or no host.
    Invalid(String),
    /// An IP-literal host in refused space.
    Blocked(String),
}

/// Checks scheme and host of a URL (IP literals only; names are checked when resolved).
///
/// # Errors
/// The refusal, with a message for the client.
pub fn check_url(url: &Url, allow_private: bool) -> Result<(), UrlRefusal> {
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
            if !allow_private
                && (name.eq_ignore_ascii_case("localhost") || name.ends_with(".localhost"))
            {
                return Err(UrlRefusal::Blocked(format!("`{name}` is a loopback name")));
            }
            return Ok(());
        }
    };
    if !allow_private && is_internal(ip) {
        return Err(UrlRefusal::Blocked(format!(
            "{ip} is a private, loopback or link-local address (set fetch.allow_private_networks to allow)"
        )));
    }
    Ok(())
}

/// A DNS resolver that drops internal addresses unless they are allowed.
#[derive(Debug, Clone, Copy)]
pub struct GuardedResolver {
    /// When true, every address passes (tests and trusted deployments).
    pub allow_private: bool,
}

/// The message carried by a resolution refused by the guard; the fetcher recognises it.
pub const BLOCKED_RESOLUTION: &str =
    "resolves only to refused (private, loopback or link-local) addresses";

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let resolved: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let kept: Vec<SocketAddr> = resolved
                .into_iter()
                .filter(|addr| allow_private || !is_internal(addr.ip()))
                .collect();
            if kept.is_empty() {
                return Err(format!("{host} {BLOCKED_RESOLUTION}").into());
            }
            let addrs: Addrs = Box::new(kept.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_ranges_are_recognised() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd12::1",
            "::ffff:127.0.0.1",
            "fd00:ec2::254",
        ] {
            assert!(is_internal(ip.parse().unwrap()), "{ip} should be internal");
        }
        for ip in ["93.184.216.34", "1.1.1.1", "2606:4700::1111"] {
            assert!(!is_internal(ip.parse().unwrap()), "{ip} should be public");
        }
    }

    #[test]
    fn url_checks_scheme_and_literal_hosts() {
        let check = |u: &str, allow| check_url(&Url::parse(u).unwrap(), allow);
        assert!(matches!(
            check("ftp://example.com/", false),
            Err(UrlRefusal::Invalid(_))
        ));
        assert!(matches!(
            check("http://127.0.0.1:8080/", false),
            Err(UrlRefusal::Blocked(_))
        ));
        assert!(matches!(
            check("http://localhost/", false),
            Err(UrlRefusal::Blocked(_))
        ));
        assert!(matches!(
            check("http://[::1]/", false),
            Err(UrlRefusal::Blocked(_))
        ));
        assert!(check("http://127.0.0.1:8080/", true).is_ok());
        assert!(check("https://example.com/a", false).is_ok());
    }
}
