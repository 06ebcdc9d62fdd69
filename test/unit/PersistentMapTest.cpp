//===--- PersistentMapTest.cpp - The structure-sharing map ----------------===//
//
// The map against std::map under random operations, and the properties the
// engine relies on: copies are independent, diff reports exactly the
// entries that differ and skips what two versions share, sweeps see only
// marked values.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/PersistentMap.h"
#include "gtest/gtest.h"
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

using namespace streamsafe;

namespace {

// Summary bits: 1 = odd, 2 = a multiple of 3.
struct OddOrThrees {
  using Summary = unsigned;
  static unsigned summary(int V) { return (V % 2 ? 1 : 0) | (V % 3 ? 0 : 2); }
};
using Map = PersistentMap<uint64_t, int, OddOrThrees>;
bool odd(unsigned S) { return S & 1; }
using Ref = std::map<uint64_t, int>;

Ref contents(const Map &M) {
  Ref R;
  M.forEach([&](uint64_t K, int V) {
    EXPECT_TRUE(R.empty() || R.rbegin()->first < K) << "in key order";
    R[K] = V;
  });
  return R;
}

using Diff = std::set<std::tuple<uint64_t, int, int>>; // -1: absent
Diff diffOf(const Map &A, const Map &B) {
  Diff D;
  Map::diff(A, B, [&](uint64_t K, const int *L, const int *R) {
    EXPECT_TRUE(D.insert({K, L ? *L : -1, R ? *R : -1}).second)
        << "each key once";
  });
  return D;
}
Diff diffOf(const Ref &A, const Ref &B) {
  Diff D;
  for (const auto &[K, V] : A) {
    auto It = B.find(K);
    if (It == B.end() || It->second != V)
      D.insert({K, V, It == B.end() ? -1 : It->second});
  }
  for (const auto &[K, V] : B)
    if (!A.count(K))
      D.insert({K, -1, V});
  return D;
}

// Keys from a small dense range, a few huge ones and 0: every bit position
// and both ends of the unsigned order.
uint64_t randomKey(std::mt19937_64 &Rng) {
  switch (Rng() % 4) {
  case 0:
    return Rng() % 64;
  case 1:
    return Rng();
  case 2:
    return ~uint64_t(0) - Rng() % 8;
  default:
    return Rng() % 8;
  }
}

TEST(PersistentMap, AgreesWithStdMapUnderRandomOperations) {
  std::mt19937_64 Rng(42);
  for (int Round = 0; Round < 50; ++Round) {
    Map M;
    Ref R;
    std::vector<std::pair<Map, Ref>> Versions;
    for (int Step = 0; Step < 200; ++Step) {
      uint64_t K = randomKey(Rng);
      if (Rng() % 3 == 0) {
        M.erase(K);
        R.erase(K);
      } else {
        int V = static_cast<int>(Rng() % 100);
        M.set(K, V);
        R[K] = V;
      }
      ASSERT_EQ(M.size(), R.size());
      if (Step % 20 == 0)
        Versions.push_back({M, R});
    }
    EXPECT_EQ(contents(M), R);
    for (const auto &[K, V] : R) {
      ASSERT_NE(M.lookup(K), nullptr);
      EXPECT_EQ(*M.lookup(K), V);
    }
    for (uint64_t K = 0; K < 64; ++K)
      EXPECT_EQ(M.contains(K), R.count(K) == 1) << "key " << K;
    // Older versions are untouched by later updates, and diff and ==
    // between any two versions agree with the reference maps.
    for (const auto &[OldM, OldR] : Versions) {
      EXPECT_EQ(contents(OldM), OldR);
      EXPECT_EQ(diffOf(OldM, M), diffOf(OldR, R));
      EXPECT_EQ(diffOf(M, OldM), diffOf(R, OldR));
      EXPECT_EQ(OldM == M, OldR == R);
    }
  }
}

TEST(PersistentMap, EqualityIsByContentNotHistory) {
  Map A, B;
  for (uint64_t K : {5, 1, 9, 300})
    A.set(K, 7);
  for (uint64_t K : {300, 9, 2, 1, 5})
    B.set(K, 7);
  EXPECT_NE(A, B);
  B.erase(2);
  EXPECT_EQ(A, B) << "same keys and values, built in another order";
  B.set(9, 8);
  EXPECT_NE(A, B);
}

TEST(PersistentMap, DiffSkipsWhatVersionsShare) {
  Map A;
  for (uint64_t K = 0; K < 10000; ++K)
    A.set(K * 7, 2);
  Map B = A;
  B.set(70, 3);
  B.erase(700);
  B.set(5, 4);
  unsigned Calls = 0;
  Map::diff(A, B, [&](uint64_t, const int *, const int *) { ++Calls; });
  EXPECT_EQ(Calls, 3u);
  EXPECT_EQ(A.size(), 10000u) << "the copy's changes are its own";
  EXPECT_EQ(*A.lookup(70), 2);
}

TEST(PersistentMap, SweepsSeeOnlyValuesTheSummarySelects) {
  Map M;
  for (uint64_t K = 0; K < 100; ++K)
    M.set(K, K == 10 || K == 77 ? 1 : K == 50 ? 3 : 4);
  std::vector<uint64_t> Seen;
  M.forEachWhere(odd, [&](uint64_t K, int) { Seen.push_back(K); });
  EXPECT_EQ(Seen, (std::vector<uint64_t>{10, 50, 77}));
  Seen.clear();
  M.forEachWhere([](unsigned S) { return S & 2; },
                 [&](uint64_t K, int) { Seen.push_back(K); });
  EXPECT_EQ(Seen, (std::vector<uint64_t>{50}));

  Map Before = M;
  Seen.clear();
  std::vector<uint64_t> Copied;
  auto Needs = [&](uint64_t K, int) {
    Seen.push_back(K);
    return K != 50;
  };
  M.updateWhere(odd, Needs, [&](uint64_t K, int &V) {
    Copied.push_back(K);
    if (K == 10)
      V = 4; // no longer odd
  });
  EXPECT_EQ(Copied, (std::vector<uint64_t>{10, 77}));
  EXPECT_EQ(Seen, (std::vector<uint64_t>{10, 50, 77}));
  EXPECT_EQ(*M.lookup(10), 4);
  EXPECT_EQ(*Before.lookup(10), 1) << "the old version keeps its value";
  Seen.clear();
  M.forEachWhere(odd, [&](uint64_t K, int) { Seen.push_back(K); });
  EXPECT_EQ(Seen, (std::vector<uint64_t>{50, 77}));

  Map Same = M;
  Same.updateWhere(
      odd, [](uint64_t, int) { return true; }, [](uint64_t, int &) {});
  unsigned Calls = 0;
  Map::diff(M, Same, [&](uint64_t, const int *, const int *) { ++Calls; });
  EXPECT_EQ(Calls, 0u) << "an update that changes nothing shares everything";
}

TEST(PersistentMap, PointerKeys) {
  int Objects[4];
  PersistentMap<const int *, unsigned> M;
  for (unsigned I = 0; I < 4; ++I)
    M.set(&Objects[I], I);
  M.erase(&Objects[2]);
  EXPECT_EQ(M.size(), 3u);
  EXPECT_EQ(*M.lookup(&Objects[3]), 3u);
  EXPECT_FALSE(M.contains(&Objects[2]));
  EXPECT_EQ(M.get(&Objects[2]), 0u) << "get() of an absent key: a default";
  M.clear();
  EXPECT_TRUE(M.empty());
}

} // namespace
