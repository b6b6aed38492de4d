//! Collecting every independent error of one macro call, so that one
//! compile reports them all.

/// The errors found so far.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    pub fn push(&mut self, err: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(err),
            None => self.0 = Some(err),
        }
    }

    pub fn push_result(&mut self, result: syn::Result<()>) {
        if let Err(err) = result {
            self.push(err);
        }
    }

    /// `Ok` if nothing was pushed, else every error pushed, combined.
    pub fn into_result(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}
