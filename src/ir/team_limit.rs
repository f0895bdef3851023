//! A team size known only at run time.

/// The most threads a CUDA block has.
pub const MAX_THREADS: u32 = 1024;

/// One clause's contribution to the team size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Const(u32),
    /// (clause name, expression as written): evaluated on the host.
    Runtime(String, String),
}

/// How the clauses combine: OpenMP takes the smallest (`thread_limit`,
/// `num_threads`), OpenACC multiplies workers by the vector length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    Min,
    Product,
}

/// A team size known only at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeLimit {
    pub combine: Combine,
    /// The constant part: the smallest constant (`Min`) or the product of
    /// the constant factors (`Product`), at most 1024.
    pub cap: u32,
    /// (clause, expression) of each runtime term, in clause order.
    pub terms: Vec<(String, String)>,
}

impl RuntimeLimit {
    /// The host expression of the team size (an `unsigned` from 1 to 1024);
    /// `where_` names the host's location string.
    pub fn host_expr(&self, where_: &str) -> String {
        let at_most = |e: &str, limit: &str, clause: &str| {
            format!("p2c_at_most((long long)({e}), {limit}, {where_}, \"{clause}\")")
        };
        match self.combine {
            Combine::Min => self
                .terms
                .iter()
                .fold(format!("{}u", self.cap), |acc, (c, e)| at_most(e, &acc, c)),
            Combine::Product => {
                let mut factors = Vec::new();
                if self.cap != 1 {
                    factors.push(format!("(long long){}", self.cap));
                }
                for (c, e) in &self.terms {
                    factors.push(format!(
                        "(long long){}",
                        at_most(e, &format!("{MAX_THREADS}u"), c)
                    ));
                }
                let first = &self.terms[0].0;
                at_most(&factors.join(" * "), &format!("{MAX_THREADS}u"), first)
            }
        }
    }

    /// For the plan: how the size is computed.
    pub fn describe(&self) -> String {
        let terms: Vec<String> = self
            .terms
            .iter()
            .map(|(c, e)| format!("{c}({e})"))
            .collect();
        match self.combine {
            Combine::Min => format!("min({}, {})", terms.join(", "), self.cap),
            Combine::Product if self.cap == 1 => {
                format!("min({}, {MAX_THREADS})", terms.join(" * "))
            }
            Combine::Product => {
                format!("min({} * {}, {MAX_THREADS})", self.cap, terms.join(" * "))
            }
        }
    }
}
