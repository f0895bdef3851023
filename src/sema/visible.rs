//! What [`super::symbols::visible_at`] answers: the local declarations seen
//! at a point, and the file-scope declarations before the enclosing
//! top-level item, looked up in an index of the file scope built once per
//! tree (issue 15: each answer used to collect every earlier top-level item,
//! quadratic in the file).
//!
//! The index is kept while a [`ScopeCache`] guard lives, for the tree and
//! texts the guard names; the driver holds one over each translation.
//! Without a guard (or for another tree) an index of the file scope is built
//! for the one lookup, as before.

use super::symbols::{collect_file_scope, Symbol};
use crate::front::c::Node;
use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Each name's file-scope declarations: (start of their top-level item,
/// symbol), in order.
pub(crate) struct GlobalIndex {
    by_name: HashMap<String, Vec<(usize, Symbol)>>,
}

impl GlobalIndex {
    /// The file-scope declarations of the top-level items of `root` that
    /// start before `limit`.
    fn build(root: Node<'_>, text: &str, limit: usize) -> Self {
        let mut by_name: HashMap<String, Vec<(usize, Symbol)>> = HashMap::new();
        let mut c = root.walk();
        for item in root.children(&mut c) {
            if item.start_byte() >= limit {
                break;
            }
            let mut syms = Vec::new();
            collect_file_scope(item, text, &mut syms);
            #[cfg(test)]
            ITEMS_READ.with(|n| n.set(n.get() + 1));
            for s in syms {
                by_name
                    .entry(s.name.clone())
                    .or_default()
                    .push((item.start_byte(), s));
            }
        }
        GlobalIndex { by_name }
    }

    /// The last declaration of `name` in an item starting before `before`.
    fn get(&self, name: &str, before: usize) -> Option<&Symbol> {
        self.by_name
            .get(name)?
            .iter()
            .rev()
            .find(|(at, _)| *at < before)
            .map(|(_, s)| s)
    }
}

/// (root node id, text address, text length) a guard vouches for.
type Key = (usize, usize, usize);

#[derive(Default)]
struct Cache {
    keys: Vec<Key>,
    built: Vec<(Key, Rc<GlobalIndex>)>,
    /// Values computed from one of the texts, by (address, length, type).
    memos: Vec<(usize, usize, TypeId, Rc<dyn Any>)>,
}

#[cfg(test)]
thread_local! {
    /// Top-level items read into indexes (the growth test).
    static ITEMS_READ: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

thread_local! {
    static CACHE: RefCell<Vec<Cache>> = const { RefCell::new(Vec::new()) };
}

/// While it lives, lookups on `root` with the given texts share one index
/// of the file scope. The tree and the texts must outlive the guard (they
/// do when the guard is made after them in the same function).
pub struct ScopeCache {
    _private: (),
}

impl ScopeCache {
    pub fn new(root: Node<'_>, texts: &[&str]) -> Self {
        let keys = texts
            .iter()
            .map(|t| (root.id(), t.as_ptr() as usize, t.len()))
            .collect();
        CACHE.with(|c| {
            c.borrow_mut().push(Cache {
                keys,
                ..Cache::default()
            })
        });
        ScopeCache { _private: () }
    }
}

impl Drop for ScopeCache {
    fn drop(&mut self) {
        CACHE.with(|c| {
            c.borrow_mut().pop();
        });
    }
}

/// The file-scope index for `root` and `text`: the cached one under a guard
/// that names them, else one of the items before `limit`, built now.
pub(crate) fn global_index(root: Node<'_>, text: &str, limit: usize) -> Rc<GlobalIndex> {
    let key = (root.id(), text.as_ptr() as usize, text.len());
    let cached = CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let cache = c.iter_mut().rev().find(|c| c.keys.contains(&key))?;
        if let Some((_, ix)) = cache.built.iter().find(|(k, _)| *k == key) {
            return Some(ix.clone());
        }
        let ix = Rc::new(GlobalIndex::build(root, text, usize::MAX));
        cache.built.push((key, ix.clone()));
        Some(ix)
    });
    cached.unwrap_or_else(|| Rc::new(GlobalIndex::build(root, text, limit)))
}

/// `make()`, computed once per text of a live guard (a value that depends on
/// `text` alone, such as its object-like macros); computed each time for
/// any other text.
pub fn memo_for_text<T: Clone + 'static>(text: &str, make: impl FnOnce() -> T) -> T {
    let (ptr, len) = (text.as_ptr() as usize, text.len());
    let found = CACHE.with(|c| {
        let c = c.borrow();
        let cache = c
            .iter()
            .rev()
            .find(|c| c.keys.iter().any(|k| (k.1, k.2) == (ptr, len)))?;
        let hit = cache
            .memos
            .iter()
            .find(|m| (m.0, m.1, m.2) == (ptr, len, TypeId::of::<T>()))
            .and_then(|m| m.3.downcast_ref::<T>().cloned());
        Some(hit)
    });
    match found {
        Some(Some(v)) => v,
        Some(None) => {
            let v = make();
            CACHE.with(|c| {
                let mut c = c.borrow_mut();
                if let Some(cache) = c
                    .iter_mut()
                    .rev()
                    .find(|c| c.keys.iter().any(|k| (k.1, k.2) == (ptr, len)))
                {
                    let rc: Rc<dyn Any> = Rc::new(v.clone());
                    cache.memos.push((ptr, len, TypeId::of::<T>(), rc));
                }
            });
            v
        }
        None => make(),
    }
}

/// The symbols visible at a point: locals (parameters and block
/// declarations, inner ones hiding outer ones) over the file scope before
/// the enclosing top-level item.
#[derive(Clone, Default)]
pub struct Scope {
    locals: HashMap<String, Symbol>,
    globals: Option<Rc<GlobalIndex>>,
    /// Start of the enclosing top-level item.
    before: usize,
}

impl Scope {
    pub(crate) fn new(
        locals: HashMap<String, Symbol>,
        globals: Rc<GlobalIndex>,
        before: usize,
    ) -> Self {
        Scope {
            locals,
            globals: Some(globals),
            before,
        }
    }

    /// The symbol `name` names here.
    pub fn get(&self, name: &str) -> Option<&Symbol> {
        self.locals
            .get(name)
            .or_else(|| self.globals.as_ref()?.get(name, self.before))
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Declares `s` here (hiding what had its name).
    pub fn insert(&mut self, s: Symbol) {
        self.locals.insert(s.name.clone(), s);
    }

    /// The declarations made inside the enclosing top-level item
    /// (parameters and locals), and those added with [`Scope::insert`].
    pub fn locals(&self) -> impl Iterator<Item = &Symbol> {
        self.locals.values()
    }
}

/// A scope of exactly these symbols (tests, and lookups built by hand).
impl From<HashMap<String, Symbol>> for Scope {
    fn from(locals: HashMap<String, Symbol>) -> Self {
        Scope {
            locals,
            globals: None,
            before: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::parse_c;
    use crate::sema::symbols::visible_at;

    /// `n` functions, each reading a global and its parameter.
    fn program(n: usize) -> String {
        let mut s = String::from("int g;\n");
        for k in 0..n {
            s.push_str(&format!("int f{k}(int p) {{ int l = p + g; return l; }}\n"));
        }
        s
    }

    /// Items read to answer a look-up in every function body, and what the
    /// look-ups found.
    fn lookups(n: usize, cached: bool) -> (u64, usize) {
        let tree = parse_c(program(n));
        let root = tree.root().expect("a tree");
        let text = tree.text.as_str();
        let _guard = cached.then(|| ScopeCache::new(root, &[text]));
        ITEMS_READ.with(|c| c.set(0));
        let mut found = 0;
        let mut c = root.walk();
        for f in root.children(&mut c) {
            let Some(body) = f.child_by_field_name("body") else {
                continue;
            };
            let v = visible_at(root, text, body);
            found += ["g", "p"].iter().filter(|x| v.contains_key(x)).count();
            let prev = format!("f{}", f.start_byte()); // never declared
            assert!(v.get(&prev).is_none());
        }
        (ITEMS_READ.with(|c| c.get()), found)
    }

    /// Issue 15: under a guard the file scope is read once per tree, so 4x
    /// the functions reads 4x the items (every look-up used to read every
    /// earlier item: 16x); the answers are those of the uncached look-up.
    #[test]
    fn file_scope_is_read_once_per_tree() {
        let (small, found_small) = lookups(50, true);
        let (big, found_big) = lookups(200, true);
        assert_eq!((found_small, found_big), (100, 400));
        assert!(
            big <= 5 * small,
            "{small} items for 50 functions, {big} for 200"
        );
        let (uncached, found) = lookups(50, false);
        assert_eq!(found, 100);
        assert!(uncached > 10 * small, "{uncached} uncached, {small} cached");
    }

    /// A function's own earlier siblings are visible, later ones are not;
    /// a local hides a global of its name.
    #[test]
    fn globals_before_the_item_and_locals_first() {
        let text = "int a; void f(void) { int b; { a = b; } }\ndouble a2; int c;\nvoid g(void) { double a; c = 1; }\n";
        let tree = parse_c(text.to_string());
        let root = tree.root().expect("a tree");
        let _guard = ScopeCache::new(root, &[tree.text.as_str()]);
        let f_body = root
            .child(1)
            .and_then(|f| f.child_by_field_name("body"))
            .expect("f");
        let v = visible_at(root, &tree.text, f_body);
        assert!(v.contains_key("a") && !v.contains_key("c") && !v.contains_key("a2"));
        let g_body = root
            .child(4)
            .and_then(|f| f.child_by_field_name("body"))
            .expect("g");
        let inner = g_body.named_child(1).expect("c = 1");
        let v = visible_at(root, &tree.text, inner);
        assert!(v.contains_key("c") && v.contains_key("a2"));
        assert_eq!(v.get("a").map(|s| s.ty.base.as_str()), Some("double"));
    }
}
