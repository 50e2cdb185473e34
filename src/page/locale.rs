//! The page's locale as far as prices need it: which currency a bare `$`, `kr` or `¥` means.

use crate::page::Page;
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// The language and region a page declares (`<html lang="de-CH">`, `content-language`,
/// `og:locale`), lower-cased.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Locale {
    /// Primary language subtag: `de`, `en`, `pt`.
    pub language: String,
    /// Region subtag when given: `ch`, `us`, `br`.
    pub region: Option<String>,
}

impl Locale {
    /// Parses a language tag (`pt-BR`, `en_GB`, `sv`).
    pub fn parse(tag: &str) -> Self {
        let mut parts = tag
            .trim()
            .split(['-', '_'])
            .map(str::to_ascii_lowercase)
            .filter(|p| !p.is_empty());
        let language = parts.next().unwrap_or_default();
        // The region is the first two-letter part after the language (`zh-Hant-TW` → `tw`).
        let region = parts.find(|p| p.len() == 2 && p.chars().all(|c| c.is_ascii_alphabetic()));
        Self { language, region }
    }

    /// The locale a page declares, or an empty one.
    pub fn of_page(page: &Page) -> Self {
        let doc = &page.document;
        let html_lang = doc
            .select_checked(static_selector!("html[lang]"))
            .next()
            .and_then(|el| el.value().attr("lang"));
        let meta = || {
            doc.select_checked(static_selector!(
                "meta[http-equiv=content-language], meta[property='og:locale']"
            ))
            .find_map(|el| el.value().attr("content"))
        };
        html_lang
            .filter(|l| !l.trim().is_empty())
            .or_else(meta)
            .map(Self::parse)
            .unwrap_or_default()
    }

    /// Whether the locale is this language, or this region when `region` is given.
    fn is(&self, language: &str, region: Option<&str>) -> bool {
        match region {
            Some(r) => self.region.as_deref() == Some(r),
            None => self.language == language,
        }
    }

    /// The ISO 4217 code a dollar sign means here (`$` is also the Canadian, Australian,
    /// Mexican… dollar or peso).
    pub fn dollar(&self) -> &'static str {
        const REGIONS: &[(&str, &str)] = &[
            ("ca", "CAD"),
            ("au", "AUD"),
            ("nz", "NZD"),
            ("mx", "MXN"),
            ("sg", "SGD"),
            ("hk", "HKD"),
            ("ar", "ARS"),
            ("cl", "CLP"),
            ("co", "COP"),
            ("tw", "TWD"),
        ];
        REGIONS
            .iter()
            .find(|(region, _)| self.is("", Some(region)))
            .map_or("USD", |(_, code)| code)
    }

    /// The crown a `kr` means: Swedish, Danish, Norwegian or Icelandic; None without a
    /// Nordic locale (a reader could not tell either).
    pub fn crown(&self) -> Option<&'static str> {
        const LANGUAGES: &[(&str, &str, &str)] = &[
            ("sv", "se", "SEK"),
            ("da", "dk", "DKK"),
            ("nb", "no", "NOK"),
            ("nn", "no", "NOK"),
            ("no", "no", "NOK"),
            ("is", "is", "ISK"),
        ];
        LANGUAGES
            .iter()
            .find(|(language, region, _)| self.is(language, None) || self.is("", Some(region)))
            .map(|(_, _, code)| *code)
    }

    /// The currency a `¥` means: the renminbi on Chinese pages, else the yen.
    pub fn yen(&self) -> &'static str {
        if self.is("zh", None) || self.is("", Some("cn")) {
            "CNY"
        } else {
            "JPY"
        }
    }
}
