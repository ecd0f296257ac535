//! Typed arenas and handles.
//!
//! Every IR entity (type, op, value, region, function, global) lives in an
//! [`Arena`] and is referred to by a [`Handle`]: a 32-bit index that carries
//! the entity's type, so a value handle cannot be used where an op is meant.
//! Side tables keyed by handles ([`SecondaryMap`]) hold analysis results so
//! the IR nodes themselves stay plain data.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::num::NonZeroU32;

/// A typed index into an [`Arena`]. `Option<Handle<T>>` is 4 bytes.
pub struct Handle<T> {
    index: NonZeroU32,
    marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    /// The handle of the `index`-th element (0-based).
    ///
    /// # Panics
    /// If `index` does not fit in 32 bits minus one; arenas never grow that far.
    pub fn new(index: usize) -> Self {
        let raw = u32::try_from(index + 1).expect("arena index overflow");
        Handle {
            index: NonZeroU32::new(raw).expect("index + 1 is never zero"),
            marker: PhantomData,
        }
    }

    /// The 0-based position of the element in its arena.
    pub fn index(self) -> usize {
        (self.index.get() - 1) as usize
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}
impl<T> Eq for Handle<T> {}
impl<T> PartialOrd for Handle<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Handle<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.index.cmp(&other.index)
    }
}
impl<T> Hash for Handle<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.index.hash(state)
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = std::any::type_name::<T>();
        let short = name.rsplit("::").next().unwrap_or(name);
        write!(f, "{}#{}", short, self.index())
    }
}

/// An append-only store of `T`s addressed by [`Handle<T>`].
#[derive(Clone, PartialEq)]
pub struct Arena<T> {
    items: Vec<T>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { items: Vec::new() }
    }
}

impl<T: fmt::Debug> fmt::Debug for Arena<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<T> Arena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stores `value` and returns its handle.
    pub fn append(&mut self, value: T) -> Handle<T> {
        let handle = Handle::new(self.items.len());
        self.items.push(value);
        handle
    }

    /// Number of elements ever appended.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True if nothing was appended.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The element, or `None` for a handle from another arena that is out of range.
    pub fn try_get(&self, handle: Handle<T>) -> Option<&T> {
        self.items.get(handle.index())
    }

    /// True if `handle` is in range for this arena.
    pub fn contains(&self, handle: Handle<T>) -> bool {
        handle.index() < self.items.len()
    }

    /// All handles with their elements, in creation order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (Handle<T>, &T)> + ExactSizeIterator {
        self.items
            .iter()
            .enumerate()
            .map(|(i, v)| (Handle::new(i), v))
    }

    /// All handles, in creation order.
    pub fn handles(&self) -> impl DoubleEndedIterator<Item = Handle<T>> + ExactSizeIterator {
        (0..self.items.len()).map(Handle::new)
    }
}

impl<T> std::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    fn index(&self, handle: Handle<T>) -> &T {
        &self.items[handle.index()]
    }
}

impl<T> std::ops::IndexMut<Handle<T>> for Arena<T> {
    fn index_mut(&mut self, handle: Handle<T>) -> &mut T {
        &mut self.items[handle.index()]
    }
}

/// A side table from handles to `V`, growing on demand, with a default for
/// handles never written.
#[derive(Clone, Debug)]
pub struct SecondaryMap<K, V: Clone> {
    items: Vec<V>,
    default: V,
    marker: PhantomData<fn() -> K>,
}

impl<K, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        Self::with_default(V::default())
    }
}

impl<K, V: Clone> SecondaryMap<K, V> {
    /// An empty map whose unset entries read as `default`.
    pub fn with_default(default: V) -> Self {
        SecondaryMap {
            items: Vec::new(),
            default,
            marker: PhantomData,
        }
    }
}

impl<T, V: Clone> SecondaryMap<Handle<T>, V> {
    /// The entry for `key` (the default if never set).
    pub fn get(&self, key: Handle<T>) -> &V {
        self.items.get(key.index()).unwrap_or(&self.default)
    }

    /// Sets the entry for `key`.
    pub fn set(&mut self, key: Handle<T>, value: V) {
        let i = key.index();
        if i >= self.items.len() {
            self.items.resize(i + 1, self.default.clone());
        }
        self.items[i] = value;
    }

    /// A mutable reference to the entry for `key`, creating it if needed.
    pub fn get_mut(&mut self, key: Handle<T>) -> &mut V {
        let i = key.index();
        if i >= self.items.len() {
            self.items.resize(i + 1, self.default.clone());
        }
        &mut self.items[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_index_and_niche() {
        let mut a: Arena<&str> = Arena::new();
        let x = a.append("x");
        let y = a.append("y");
        assert_eq!(a[x], "x");
        assert_eq!(a[y], "y");
        assert_eq!(y.index(), 1);
        assert_eq!(std::mem::size_of::<Option<Handle<u8>>>(), 4);
        assert!(a.contains(y));
        assert!(!a.contains(Handle::new(2)));
    }

    #[test]
    fn secondary_map_defaults() {
        let mut a: Arena<u8> = Arena::new();
        let h0 = a.append(0);
        let h5 = Handle::<u8>::new(5);
        let mut m: SecondaryMap<Handle<u8>, i32> = SecondaryMap::with_default(-1);
        assert_eq!(*m.get(h5), -1);
        m.set(h5, 7);
        assert_eq!(*m.get(h5), 7);
        assert_eq!(*m.get(h0), -1);
        *m.get_mut(h0) += 2;
        assert_eq!(*m.get(h0), 1);
    }
}
