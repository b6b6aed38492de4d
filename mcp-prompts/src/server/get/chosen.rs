//! A `prompts/get` whose `_meta` chooses another version of the prompt (a
//! registry's label or version number): found for the caller, then served
//! from the one-prompt set of that version as any request is.

use super::{GetOutcome, GetRequest, Served, Site};
use crate::catalog::{Chosen, Found, Variants};
use crate::error::Error;
use crate::server::Service;
use crate::server::methods::unknown_prompt;
use crate::server::now_or_later::NowOrLater;
use std::borrow::Cow;

impl GetRequest<'_> {
    /// Serves the version the request chose, found by `variants`: only of
    /// a prompt the catalog serves this caller (through the tool, one
    /// offered as a tool); unknown, exactly as an unknown prompt, if there
    /// is none for it.
    pub(super) fn serve_chosen(
        self,
        variants: &dyn Variants,
        service: &Service,
    ) -> NowOrLater<Result<GetOutcome, Error>> {
        let Some(choice) = &self.choice else {
            return self.serve_from(service, Served::Catalog(service.snapshot()));
        };
        let access = self.site.sender.access();
        let served = service.snapshot();
        let found = served.get(self.name, access);
        let Some(entry) = found.filter(|e| !self.via_tool || e.as_tool()) else {
            return NowOrLater::Now(Err(unknown_prompt(self.name)));
        };
        match variants.find(entry.prompt(), choice, access) {
            Found::Catalog => {
                drop(served);
                self.serve_from(service, Served::Catalog(service.snapshot()))
            }
            Found::Now(Some(set)) => self.serve_from(service, Served::Chosen(set)),
            Found::Now(None) => NowOrLater::Now(Err(unknown_prompt(self.name))),
            Found::Later(found) => self.serve_once_found(found, service.clone()),
        }
    }

    /// Serves the request from the set of the version it chose, once read.
    fn serve_once_found(
        self,
        found: std::pin::Pin<Box<dyn std::future::Future<Output = Chosen> + Send>>,
        service: Service,
    ) -> NowOrLater<Result<GetOutcome, Error>> {
        let GetRequest {
            site,
            name,
            arguments,
            retry,
            via_tool,
            preference,
            ..
        } = self;
        let (id, name, arguments) = (site.id.to_owned(), name.to_owned(), arguments.into_owned());
        let preference = preference.map(Cow::into_owned);
        let (outbound, sender) = (site.outbound.clone(), site.sender.clone());
        let (era, progress) = (site.era, site.progress);
        NowOrLater::later(async move {
            let Some(set) = found.await else {
                return Err(unknown_prompt(&name));
            };
            let request = GetRequest {
                site: Site {
                    id: &id,
                    era,
                    progress,
                    outbound: &outbound,
                    sender: &sender,
                },
                name: &name,
                arguments,
                retry,
                via_tool,
                choice: None,
                preference: preference.map(Cow::Owned),
            };
            match request.serve_from(&service, Served::Chosen(set)) {
                NowOrLater::Now(outcome) => outcome,
                NowOrLater::Later(outcome) => outcome.await,
            }
        })
    }
}
