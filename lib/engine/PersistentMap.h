//===--- PersistentMap.h - A map whose copies share structure ---*- C++ -*-===//
//
// The dataflow keeps one state per CFG block, and a long function has
// thousands of blocks and thousands of live tensors. With ordinary maps every
// copy, join and comparison costs the whole state, so analysis time and
// memory grow with the square of the function's length. This map is a
// persistent big-endian Patricia trie (Okasaki and Gill, "Fast Mergeable
// Integer Maps", 1998): a copy is one pointer, an update copies one path
// (at most 64 nodes), and the trie's shape depends only on its keys, so two
// states that descend from one share whole subtrees and `diff` and `==` skip
// them by pointer comparison. Each node also keeps a summary of the values
// below it (Traits::summary, combined with |), so sweeps over the few
// interesting values (tensors with accesses in flight, or not yet visible
// to some stream) skip the subtrees that hold none.
//
// Nodes are reference counted without atomics: one analysis runs on one
// thread.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PERSISTENTMAP_H
#define STREAMSAFE_LIB_PERSISTENTMAP_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/bit.h"
#include <cstdint>
#include <type_traits>
#include <utility>

namespace streamsafe {

/// Keys are integers or pointers, compared as unsigned 64-bit numbers.
template <typename K> struct PersistentKey {
  static uint64_t encode(K Key) {
    if constexpr (std::is_pointer_v<K>)
      return reinterpret_cast<uintptr_t>(Key);
    else
      return static_cast<uint64_t>(Key);
  }
  static K decode(uint64_t Bits) {
    if constexpr (std::is_pointer_v<K>)
      return reinterpret_cast<K>(static_cast<uintptr_t>(Bits));
    else
      return static_cast<K>(Bits);
  }
};

/// By default values have no summary.
template <typename V> struct NoSummary {
  struct Summary {
    Summary operator|(Summary) const { return {}; }
  };
  static Summary summary(const V &) { return {}; }
};

template <typename K, typename V, typename Traits = NoSummary<V>>
class PersistentMap {
public:
  using Summary = typename Traits::Summary;

private:
  struct Node {
    unsigned Refs = 0;
    unsigned Size = 1;
    Summary Sum{};
    uint64_t Key = 0; ///< a leaf's key, or a branch's common prefix
    uint64_t Bit = 0; ///< 0 for a leaf; else the bit its children differ at
  };
  struct Leaf : Node {
    V Value;
  };
  struct Branch;

  /// An owning pointer to a shared node.
  class Ref {
  public:
    Ref() = default;
    explicit Ref(Node *N) : N(N) { retain(); }
    Ref(const Ref &O) : N(O.N) { retain(); }
    Ref(Ref &&O) noexcept : N(O.N) { O.N = nullptr; }
    Ref &operator=(Ref O) noexcept {
      std::swap(N, O.N);
      return *this;
    }
    ~Ref() { release(); }
    Node *get() const { return N; }
    Node *operator->() const { return N; }
    explicit operator bool() const { return N; }
    bool operator==(const Ref &O) const { return N == O.N; }

  private:
    Node *N = nullptr;
    void retain() {
      if (N)
        ++N->Refs;
    }
    void release();
  };

  struct Branch : Node {
    Ref L, R; ///< keys with Bit clear, keys with Bit set
  };

  static const Leaf &leaf(const Ref &N) {
    return *static_cast<Leaf *>(N.get());
  }
  static const Branch &branch(const Ref &N) {
    return *static_cast<Branch *>(N.get());
  }
  static bool isLeaf(const Ref &N) { return N->Bit == 0; }

  /// The bits above \p Bit.
  static uint64_t high(uint64_t Key, uint64_t Bit) {
    return Key & ~((Bit << 1) - 1);
  }
  static bool matches(uint64_t Key, const Ref &N) {
    return high(Key, N->Bit) == N->Key;
  }

  static Ref makeLeaf(uint64_t Key, V Value) {
    auto *N = new Leaf();
    N->Key = Key;
    N->Sum = Traits::summary(Value);
    N->Value = std::move(Value);
    return Ref(N);
  }
  static Ref makeBranch(uint64_t Prefix, uint64_t Bit, Ref L, Ref R) {
    if (!L)
      return R;
    if (!R)
      return L;
    auto *N = new Branch();
    N->Key = Prefix;
    N->Bit = Bit;
    N->Size = L->Size + R->Size;
    N->Sum = L->Sum | R->Sum;
    N->L = std::move(L);
    N->R = std::move(R);
    return Ref(N);
  }
  /// Joins two non-empty tries whose key ranges are disjoint.
  static Ref link(uint64_t P1, Ref T1, uint64_t P2, Ref T2) {
    uint64_t Bit = llvm::bit_floor(P1 ^ P2);
    uint64_t Prefix = high(P1, Bit);
    if (P1 & Bit)
      return makeBranch(Prefix, Bit, std::move(T2), std::move(T1));
    return makeBranch(Prefix, Bit, std::move(T1), std::move(T2));
  }

  static Ref insert(const Ref &T, uint64_t Key, V &&Value) {
    if (!T)
      return makeLeaf(Key, std::move(Value));
    if (isLeaf(T)) {
      if (T->Key == Key)
        return makeLeaf(Key, std::move(Value));
      return link(Key, makeLeaf(Key, std::move(Value)), T->Key, T);
    }
    if (!matches(Key, T))
      return link(Key, makeLeaf(Key, std::move(Value)), T->Key, T);
    const Branch &B = branch(T);
    if (Key & T->Bit)
      return makeBranch(T->Key, T->Bit, B.L,
                        insert(B.R, Key, std::move(Value)));
    return makeBranch(T->Key, T->Bit, insert(B.L, Key, std::move(Value)), B.R);
  }

  static Ref erase(const Ref &T, uint64_t Key) {
    if (!T)
      return T;
    if (isLeaf(T))
      return T->Key == Key ? Ref() : T;
    if (!matches(Key, T))
      return T;
    const Branch &B = branch(T);
    if (Key & T->Bit) {
      Ref R = erase(B.R, Key);
      return R == B.R ? T : makeBranch(T->Key, T->Bit, B.L, std::move(R));
    }
    Ref L = erase(B.L, Key);
    return L == B.L ? T : makeBranch(T->Key, T->Bit, std::move(L), B.R);
  }

  struct All {
    bool operator()(const Summary &) const { return true; }
  };
  template <typename P, typename F>
  static void each(const Ref &T, const P &Wanted, F &Fn) {
    if (!T || !Wanted(T->Sum))
      return;
    if (isLeaf(T)) {
      Fn(PersistentKey<K>::decode(T->Key), leaf(T).Value);
      return;
    }
    each(branch(T).L, Wanted, Fn);
    each(branch(T).R, Wanted, Fn);
  }

  /// Rebuilds the leaves under summaries \p Wanted accepts for which \p Fn
  /// changes a copy of the value (only those \p Needs picks are copied).
  template <typename W, typename P, typename F>
  static Ref update(const Ref &T, const W &Wanted, P &Needs, F &Fn) {
    if (!T || !Wanted(T->Sum))
      return T;
    if (isLeaf(T)) {
      if (!Needs(PersistentKey<K>::decode(T->Key), leaf(T).Value))
        return T;
      V Copy = leaf(T).Value;
      Fn(PersistentKey<K>::decode(T->Key), Copy);
      if (Copy == leaf(T).Value)
        return T;
      return makeLeaf(T->Key, std::move(Copy));
    }
    const Branch &B = branch(T);
    Ref L = update(B.L, Wanted, Needs, Fn), R = update(B.R, Wanted, Needs, Fn);
    if (L == B.L && R == B.R)
      return T;
    return makeBranch(T->Key, T->Bit, std::move(L), std::move(R));
  }

  using DiffFn = llvm::function_ref<void(K, const V *, const V *)>;
  static void onlyLeft(const Ref &T, DiffFn Fn) {
    auto Call = [&](K Key, const V &Val) { Fn(Key, &Val, nullptr); };
    each(T, All(), Call);
  }
  static void onlyRight(const Ref &T, DiffFn Fn) {
    auto Call = [&](K Key, const V &Val) { Fn(Key, nullptr, &Val); };
    each(T, All(), Call);
  }
  static const V *find(const Ref &T, uint64_t Key) {
    const Node *N = T.get();
    while (N && N->Bit) {
      if (high(Key, N->Bit) != N->Key)
        return nullptr;
      const Branch *B = static_cast<const Branch *>(N);
      N = (Key & N->Bit) ? B->R.get() : B->L.get();
    }
    if (!N || N->Key != Key)
      return nullptr;
    return &static_cast<const Leaf *>(N)->Value;
  }
  /// A leaf against a trie: the trie's other keys are on one side only.
  static void diffLeaf(const Ref &Lf, const Ref &T, bool LeafIsLeft,
                       DiffFn Fn) {
    const V &LV = leaf(Lf).Value;
    K Key = PersistentKey<K>::decode(Lf->Key);
    const V *Other = find(T, Lf->Key);
    if (!Other || !(*Other == LV)) {
      if (LeafIsLeft)
        Fn(Key, &LV, Other);
      else
        Fn(Key, Other, &LV);
    }
    auto Rest = [&](K Each, const V &Val) {
      if (PersistentKey<K>::encode(Each) == Lf->Key)
        return;
      if (LeafIsLeft)
        Fn(Each, nullptr, &Val);
      else
        Fn(Each, &Val, nullptr);
    };
    each(T, All(), Rest);
  }
  static void diff(const Ref &A, const Ref &B, DiffFn Fn) {
    if (A == B)
      return;
    if (!A)
      return onlyRight(B, Fn);
    if (!B)
      return onlyLeft(A, Fn);
    if (isLeaf(A))
      return diffLeaf(A, B, true, Fn);
    if (isLeaf(B))
      return diffLeaf(B, A, false, Fn);
    const Branch &BA = branch(A), &BB = branch(B);
    if (A->Bit == B->Bit && A->Key == B->Key) {
      diff(BA.L, BB.L, Fn);
      diff(BA.R, BB.R, Fn);
    } else if (A->Bit > B->Bit && matches(B->Key, A)) {
      if (B->Key & A->Bit) {
        onlyLeft(BA.L, Fn);
        diff(BA.R, B, Fn);
      } else {
        diff(BA.L, B, Fn);
        onlyLeft(BA.R, Fn);
      }
    } else if (B->Bit > A->Bit && matches(A->Key, B)) {
      if (A->Key & B->Bit) {
        onlyRight(BB.L, Fn);
        diff(A, BB.R, Fn);
      } else {
        diff(A, BB.L, Fn);
        onlyRight(BB.R, Fn);
      }
    } else {
      onlyLeft(A, Fn);
      onlyRight(B, Fn);
    }
  }

  static bool equal(const Ref &A, const Ref &B) {
    if (A == B)
      return true;
    if (!A || !B || A->Key != B->Key || A->Bit != B->Bit || A->Size != B->Size)
      return false;
    if (isLeaf(A))
      return leaf(A).Value == leaf(B).Value;
    return equal(branch(A).L, branch(B).L) && equal(branch(A).R, branch(B).R);
  }

  Ref Root;

public:
  bool empty() const { return !Root; }
  unsigned size() const { return Root ? Root->Size : 0; }
  void clear() { Root = Ref(); }

  /// The value at \p Key, or null.
  const V *lookup(K Key) const {
    return find(Root, PersistentKey<K>::encode(Key));
  }
  bool contains(K Key) const { return lookup(Key) != nullptr; }
  /// A copy of the value at \p Key, or a default-constructed one.
  V get(K Key) const {
    const V *Found = lookup(Key);
    return Found ? *Found : V();
  }
  void set(K Key, V Value) {
    Root = insert(Root, PersistentKey<K>::encode(Key), std::move(Value));
  }
  void erase(K Key) { Root = erase(Root, PersistentKey<K>::encode(Key)); }

  /// Calls \p Fn(key, value) in key order.
  template <typename F> void forEach(F Fn) const { each(Root, All(), Fn); }
  /// Calls \p Fn(key, value), in key order, for the values in subtrees whose
  /// summary \p Wanted(summary) accepts (and maybe for others: a leaf's
  /// summary is its own, so a test on it is exact).
  template <typename W, typename F> void forEachWhere(W Wanted, F Fn) const {
    each(Root, Wanted, Fn);
  }
  /// Lets \p Fn(key, value&) change the values that \p Wanted(summary) and
  /// \p Needs(key, const value&) accept; unchanged values keep their nodes.
  template <typename W, typename P, typename F>
  void updateWhere(W Wanted, P Needs, F Fn) {
    Root = update(Root, Wanted, Needs, Fn);
  }

  /// Calls \p Fn(key, left value or null, right value or null) for every key
  /// whose entry differs between \p A and \p B, skipping shared subtrees.
  static void diff(const PersistentMap &A, const PersistentMap &B, DiffFn Fn) {
    diff(A.Root, B.Root, Fn);
  }
  bool operator==(const PersistentMap &O) const { return equal(Root, O.Root); }
  bool operator!=(const PersistentMap &O) const { return !(*this == O); }
};

template <typename K, typename V, typename Traits>
void PersistentMap<K, V, Traits>::Ref::release() {
  if (!N || --N->Refs)
    return;
  if (N->Bit == 0)
    delete static_cast<Leaf *>(N);
  else
    delete static_cast<Branch *>(N);
  N = nullptr;
}

} // namespace streamsafe

#endif // STREAMSAFE_LIB_PERSISTENTMAP_H
