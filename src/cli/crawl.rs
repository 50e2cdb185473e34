//! `scrape-agent crawl` (a run with a `crawl` object: the same progress and answer as `run`)
//! and `scrape-agent map` (a site's URLs, in this process).

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{CliError, Exit, FormatArg, PlannerArg, PrivateArgs, RenderArg, RunArgs, ServerArgs};
use crate::fetch::Fetcher;
use crate::run::crawl::CrawlOptions;
use crate::run::map::{self, MapProgress, MapRequest, SitemapMode};
use crate::settings::Settings;

/// `--sitemap`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum SitemapArg {
    /// Sitemaps and links.
    Include,
    /// Sitemaps only.
    Only,
    /// Links only.
    Skip,
}

impl From<SitemapArg> for SitemapMode {
    fn from(arg: SitemapArg) -> Self {
        match arg {
            SitemapArg::Include => Self::Include,
            SitemapArg::Only => Self::Only,
            SitemapArg::Skip => Self::Skip,
        }
    }
}

/// `scrape-agent crawl`.
#[derive(Debug, Args)]
pub(super) struct CrawlArgs {
    /// Where the crawl starts (seeds); their sites are crawled.
    #[arg(value_name = "URL", required = true)]
    urls: Vec<String>,
    /// What you want from every page, in plain words ("the title and last-updated date").
    #[arg(short, long)]
    instructions: String,
    /// Pages read at most, seeds included (default crawl.default_max_pages).
    #[arg(long)]
    max_pages: Option<u32>,
    /// Links followed from a seed at most (default crawl.default_max_depth).
    #[arg(long)]
    max_depth: Option<u32>,
    /// Only paths matching this glob (`/docs/**`); may repeat.
    #[arg(long)]
    include: Vec<String>,
    /// No path matching this glob; may repeat.
    #[arg(long)]
    exclude: Vec<String>,
    /// Whether the sites' sitemaps are read.
    #[arg(long, value_enum, default_value_t = SitemapArg::Include)]
    sitemap: SitemapArg,
    /// Subdomains of a seed's site are part of the crawl.
    #[arg(long)]
    allow_subdomains: bool,
    /// URLs that differ only in their query are one page.
    #[arg(long)]
    ignore_query: bool,
    /// How the answer is written.
    #[arg(short, long, value_enum, default_value_t = FormatArg::Json)]
    format: FormatArg,
    /// Write the answer to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print every event as one JSON line on stdout instead of the answer.
    #[arg(long)]
    json_events: bool,
    #[command(flatten)]
    pub(super) private: PrivateArgs,
    /// No progress on stderr (errors are still printed).
    #[arg(short, long)]
    quiet: bool,
    /// Which planner decides.
    #[arg(long, value_enum, default_value_t = PlannerArg::Auto)]
    planner: PlannerArg,
    /// The session's id (`[A-Za-z0-9_-]{1,64}`); a new one when absent.
    #[arg(long)]
    session_id: Option<String>,
    /// Whether pages are rendered by the browser (`auto`, `never`, `always`).
    #[arg(long, value_enum, default_value_t = RenderArg::Auto)]
    render: RenderArg,
    #[command(flatten)]
    server: ServerArgs,
}

impl CrawlArgs {
    /// The `run` these flags describe: the same request, with a `crawl` object.
    pub(super) fn into_run(self) -> RunArgs {
        RunArgs {
            urls: self.urls,
            instructions: Some(self.instructions),
            format: self.format,
            output_instructions: None,
            tools: None,
            out: self.out,
            json_events: self.json_events,
            markdown: false,
            private: self.private,
            quiet: self.quiet,
            planner: self.planner,
            model: None,
            max_steps: None,
            max_pages: None,
            max_detail_pages: None,
            session_id: self.session_id,
            render: self.render,
            server: self.server,
            crawl: Some(CrawlOptions {
                max_pages: self.max_pages,
                max_depth: self.max_depth,
                include: self.include,
                exclude: self.exclude,
                sitemap: self.sitemap.into(),
                allow_subdomains: self.allow_subdomains,
                ignore_query: self.ignore_query,
            }),
        }
    }
}

/// `scrape-agent map`.
#[derive(Debug, Args)]
pub(super) struct MapArgs {
    /// The site to map.
    #[arg(value_name = "URL")]
    url: String,
    /// URLs listed at most (default crawl.map_default_limit).
    #[arg(long)]
    limit: Option<usize>,
    /// Words to rank by (in the URL or the title).
    #[arg(long)]
    search: Option<String>,
    /// Whether the site's sitemaps are read.
    #[arg(long, value_enum, default_value_t = SitemapArg::Include)]
    sitemap: SitemapArg,
    /// Subdomains of the site are part of it.
    #[arg(long)]
    include_subdomains: bool,
    /// The whole answer as JSON (as `POST /api/map` gives it) instead of one URL a line.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    pub(super) private: PrivateArgs,
    /// No progress on stderr.
    #[arg(short, long)]
    quiet: bool,
}

/// Maps a site in this process and prints its URLs (one a line, a tab and the title when
/// known), or the whole answer with `--json`. Exit 1 when no URL was found.
///
/// # Errors
/// A request the agent refuses (exit 2), a fetcher that cannot be built (exit 3).
pub(super) async fn map(settings: Settings, args: MapArgs) -> Result<Exit, CliError> {
    let request = MapRequest {
        url: args.url,
        limit: args.limit,
        search: args.search,
        sitemap: args.sitemap.into(),
        include_subdomains: args.include_subdomains,
    };
    let valid = request.validate(&settings.crawl)?;
    let fetcher =
        Fetcher::new(&settings.fetch).map_err(|err| CliError::Unavailable(err.to_string()))?;
    let live = !args.quiet && std::io::stderr().is_terminal();
    let quiet = args.quiet;
    let show = |p: MapProgress| {
        let line = format!(
            "found {} URL(s): {} sitemap(s) read, {} page(s) walked",
            p.found, p.sitemaps, p.pages
        );
        if live {
            eprint!("\r{line}");
        } else if !quiet {
            eprintln!("{line}");
        }
    };
    let answer = map::map(&fetcher, &settings.crawl, valid, show)
        .await
        .map_err(|err| CliError::Usage(format!("{}: {err}", err.code().as_str())))?;
    if live {
        eprintln!();
    }
    if args.json {
        let text = serde_json::to_string_pretty(&answer)
            .map_err(|err| CliError::Unavailable(err.to_string()))?;
        println!("{text}");
    } else {
        for link in &answer.links {
            match &link.title {
                Some(title) => println!("{}\t{title}", link.url),
                None => println!("{}", link.url),
            }
        }
    }
    if !quiet {
        eprintln!(
            "{} URL(s){} in {} ms",
            answer.links.len(),
            if answer.truncated {
                " (limit reached)"
            } else {
                ""
            },
            answer.duration_ms
        );
    }
    Ok(if answer.links.is_empty() {
        Exit::UrlFailed
    } else {
        Exit::Success
    })
}
