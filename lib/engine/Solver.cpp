//===--- Solver.cpp - The worklist over the fact IR -----------------------===//

#include "lib/engine/Solver.h"
#include "lib/engine/Diagnoser.h"
#include "lib/engine/EdgeConditions.h"
#include "lib/engine/FoldFindings.h"
#include "lib/engine/Transfer.h"
#include "lib/model/Bounds.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace streamsafe {

namespace {

/// A block visited this many times joins coarsely (see Coarse below). (3
/// dropped what an event chain's record covers in the two copies of a
/// Python counter loop's body, TransformerEngine's context-parallel
/// attention, before the loop had settled; 4 keeps it.)
constexpr unsigned CoarseJoinAfterVisits = 4;
/// After this many visits a block's input only grows (see solveBody).
/// Nested loops need a few visits per level before they settle.
constexpr unsigned GrowOnlyAfterVisits = 12;
using bounds::MaxBodyNesting;
/// Visits every body gets on top of VisitsPerBlock per block.
constexpr unsigned VisitSlack = 16;
/// States kept apart at one block because their paths contradict each other
/// on a never-changing variable; past this, they are joined as one.
constexpr unsigned MaxPartitions = 8;

/// The states at a program point, one per combination of branch outcomes on
/// never-changing variables (usually one). Empty: unreachable.
using StateSet = llvm::SmallVector<StreamState, 1>;

StreamState
joinAll(const StateSet &Set,
        const std::function<StorageId(VarId, VarId, StorageId)> &PhiFor,
        bool Coarse) {
  StreamState All;
  for (const StreamState &S : Set)
    All.join(S, PhiFor, Coarse);
  return All;
}

/// Reverse post-order of a body's blocks, successors taken last to first:
/// a loop's exit is finished before its body, so the body comes first and a
/// loop converges before the code after it is visited (first to last put
/// every loop body after the rest of the function: each iteration re-ran
/// everything downstream, O(N) visits per block).
std::vector<unsigned> reversePostOrder(const Body &B) {
  std::vector<unsigned> Order;
  std::vector<char> Seen(B.Blocks.size(), 0);
  std::vector<std::pair<unsigned, unsigned>> Stack; // (block, next successor)
  Stack.push_back({B.Entry, 0});
  Seen[B.Entry] = 1;
  while (!Stack.empty()) {
    auto &[Id, I] = Stack.back();
    const auto &Succs = B.Blocks[Id].Succs;
    if (I < Succs.size()) {
      unsigned Succ = Succs[Succs.size() - 1 - I++];
      if (!Seen[Succ]) {
        Seen[Succ] = 1;
        Stack.push_back({Succ, 0});
      }
      continue;
    }
    Order.push_back(Id);
    Stack.pop_back();
  }
  std::reverse(Order.begin(), Order.end());
  return Order;
}

struct BodyOrder {
  std::vector<unsigned> Order; ///< reverse post-order of block ids
  std::vector<unsigned> Rank;  ///< position in Order, ~0u if unreachable
};

class Solver {
public:
  Solver(const Function &IR, const SolverLimits &Limits, SolverResult &R)
      : IR(IR), Limits(Limits), R(R), T(IR), D(T, Findings) {
    T.setBodyRunner(
        [this](BodyId B, const StreamState &Entry, SiteId CallSite) {
          return runBody(B, Entry, CallSite);
        });
    T.setCallSiteNow(
        [this] { return CallStack.empty() ? NoSite : CallStack.front(); });
  }

  void run() {
    std::vector<std::pair<unsigned, StreamState>> ExitPaths;
    InReplay = true;
    StreamState Exit = solveBody(0, T.entryState(), &ExitPaths);
    if (R.State == SolverResult::BudgetExceeded)
      return;
    if (!IR.Fields.empty())
      R.FieldsLeft = T.fieldsLeft(Exit);
    // What was freed on a path out is judged there: the caller allocates.
    for (const auto &[Block, State] : ExitPaths) {
      D.freedBlocks(State, std::nullopt);
      D.leftForCaller(State, IR.Bodies[0].Blocks[Block].ExitSite);
    }
    if (IR.MayLeaveStreamSet || !Exit.Reachable)
      return;
    // Report each unrestored set once, at the first path out that keeps it.
    std::set<SiteId> Done;
    for (auto &[Block, State] : ExitPaths) {
      llvm::erase_if(State.Unrestored,
                     [&](SiteId U) { return !Done.insert(U).second; });
      if (!State.Unrestored.empty())
        D.atExit(State, IR.Bodies[0].Blocks[Block].ExitSite);
    }
  }

  std::vector<Finding> Findings;

private:
  /// The never-changing variables a body run in place tests (its own
  /// branches and those of the bodies it runs in place, MaxBodyNesting
  /// deep), each with the condition of its first edge that holds it true
  /// and false (for a finding's note).
  const std::vector<std::pair<Assumption, Assumption>> &
  testedBy(BodyId Id, unsigned Deep) {
    auto [It, New] = Tested.try_emplace(Id);
    if (!New || Id >= IR.Bodies.size())
      return It->second;
    std::vector<std::pair<Assumption, Assumption>> Found;
    auto Add = [&](const Assumption &A) {
      if (A.On != Assumption::Test::Remembered || A.Var == NoVar || A.Local)
        return;
      auto Have = llvm::find_if(
          Found, [&](const auto &P) { return P.first.Var == A.Var; });
      if (Have == Found.end()) {
        Found.push_back({A, A});
        Have = Found.end() - 1;
        Have->first.At = Have->second.At = NoSite;
      }
      Assumption &Slot = A.Value ? Have->first : Have->second;
      if (Slot.At == NoSite) {
        Slot = A;
        Slot.NoneTensor = NoVar;
      }
    };
    for (const Block &B : IR.Bodies[Id].Blocks) {
      for (const EdgeCondition &C : B.SuccConds)
        for (const Assumption &A : C)
          Add(A);
      if (Deep + 1 >= MaxBodyNesting)
        continue;
      for (const Fact &F : B.Facts)
        if (const auto *S = F.as<fact::Spawn>(); S && S->InPlace)
          for (const auto &P : testedBy(S->Body, Deep + 1)) {
            Add(P.first);
            Add(P.second);
          }
    }
    for (auto &P : Found) {
      P.first.Value = true;
      P.second.Value = false;
    }
    // (Looked up again: the recursion may have grown the map.)
    return Tested[Id] = std::move(Found);
  }

  /// The variables whose outcome an edge reachable from \p Block of body
  /// \p Id tests, a body run in place there included (sorted): what a
  /// state there still gains by remembering.
  /// Which variable's outcomes to forget when too many states are kept
  /// apart: the first tested (the lowest: front ends number them as they
  /// meet them) of those whose states agree on the streams in use, else the
  /// first tested. The latest tests are the likeliest to be tested again
  /// nearby (`if fmt == "a": ...` in each iteration of an unrolled loop);
  /// a flag that chose a stream (`stream = side if overlap else current`)
  /// is kept, or a later test of it would meet the other choice's work.
  static VarId forgetVar(const StateSet &Set) {
    std::vector<VarId> Vars;
    for (const StreamState &Have : Set)
      for (const Assumption &A : Have.Assumed)
        if (!A.PerIteration)
          Vars.push_back(A.Var);
    llvm::sort(Vars);
    Vars.erase(std::unique(Vars.begin(), Vars.end()), Vars.end());
    auto Without = [](const StreamState &S, VarId V) {
      llvm::SmallVector<Assumption, 4> Out;
      for (const Assumption &A : S.Assumed)
        if (A.PerIteration || A.Var != V)
          Out.push_back(A);
      return Out;
    };
    auto SameStreams = [](const StreamState &A, const StreamState &B) {
      return A.Current == B.Current && A.StreamVars == B.StreamVars &&
             A.NoneStreams == B.NoneStreams && A.Guards == B.Guards;
    };
    for (VarId V : Vars) {
      bool Agree = true;
      for (size_t I = 0; I < Set.size() && Agree; ++I)
        for (size_t J = I + 1; J < Set.size() && Agree; ++J)
          if (Without(Set[I], V) == Without(Set[J], V))
            Agree = SameStreams(Set[I], Set[J]);
      if (Agree)
        return V;
    }
    return Vars.empty() ? NoVar : Vars.front();
  }

  const std::vector<VarId> &testedFrom(BodyId Id, unsigned Block) {
    auto [It, New] = TestedFrom.try_emplace({Id, Block});
    if (!New)
      return It->second;
    const Body &B = IR.Bodies[Id];
    std::vector<VarId> Vars;
    std::vector<char> Seen(B.Blocks.size(), 0);
    std::vector<unsigned> Work{Block};
    Seen[Block] = 1;
    while (!Work.empty()) {
      const struct Block &X = B.Blocks[Work.back()];
      Work.pop_back();
      for (const EdgeCondition &C : X.SuccConds)
        for (const Assumption &A : C)
          if (A.On == Assumption::Test::Remembered && A.Var != NoVar)
            Vars.push_back(A.Var);
      for (const Fact &F : X.Facts)
        if (const auto *S = F.as<fact::Spawn>(); S && S->InPlace)
          for (const auto &P : testedBy(S->Body, 1))
            Vars.push_back(P.first.Var);
      for (unsigned Next : X.Succs)
        if (!Seen[Next]) {
          Seen[Next] = 1;
          Work.push_back(Next);
        }
    }
    llvm::sort(Vars);
    Vars.erase(std::unique(Vars.begin(), Vars.end()), Vars.end());
    return TestedFrom[{Id, Block}] = std::move(Vars);
  }

  const BodyOrder &orderOf(BodyId Id) {
    auto &Slot = Orders[Id];
    if (Slot.Order.empty()) {
      const Body &B = IR.Bodies[Id];
      Slot.Order = reversePostOrder(B);
      Slot.Rank.assign(B.Blocks.size(), ~0u);
      for (unsigned I = 0; I < Slot.Order.size(); ++I)
        Slot.Rank[Slot.Order[I]] = I;
    }
    return Slot;
  }

  /// Solves body \p Id from \p Entry to a fixpoint; then, when diagnosing,
  /// replays each block once from its converged input. Returns the state at
  /// the exit block, unreachable when over budget.
  StreamState
  solveBody(BodyId Id, const StreamState &Entry,
            std::vector<std::pair<unsigned, StreamState>> *ExitPaths) {
    const Body &B = IR.Bodies[Id];
    // A body its front end could not lower (it did not compile): a no-op.
    if (B.Blocks.empty())
      return Entry;
    const BodyOrder &O = orderOf(Id);
    unsigned N = B.Blocks.size();
    std::vector<StateSet> In(N), OutState(N);
    std::vector<char> Visited(N, 0);
    std::vector<unsigned> Visits(N, 0);
    unsigned JoinWork = 0;
    std::function<StorageId(VarId, VarId, StorageId)> PhiFor =
        [this](VarId V, VarId SameAs, StorageId From) {
          return T.phiFor(V, SameAs, From);
        };
    // A loop head (a predecessor comes later in the order), or a block
    // visited a few times already, joins coarsely: an event's covers are
    // what every path's record listed. The finer join is not monotone (what
    // a record covers depends on what is in flight, which the covers
    // complete), and a loop must converge.
    auto Coarse = [&](unsigned Block) {
      return Visits[Block] >= CoarseJoinAfterVisits;
    };
    // Paths that agree on every never-changing variable they tested are
    // joined; paths that contradict each other are kept apart.
    // Joins the states of \p Set that now assume the same outcomes.
    auto Regroup = [&](StateSet &Set, bool IsCoarse) {
      StateSet Kept;
      for (StreamState &Have : Set) {
        auto Same = llvm::find_if(Kept, [&](const StreamState &K) {
          return K.Assumed == Have.Assumed;
        });
        if (Same == Kept.end())
          Kept.push_back(std::move(Have));
        else
          JoinWork += Same->join(Have, PhiFor, IsCoarse);
      }
      Set = std::move(Kept);
    };
    auto Add = [&](StateSet &Set, StreamState S, bool IsCoarse,
                   unsigned Block) {
      for (StreamState &Have : Set)
        if (Have.Assumed == S.Assumed) {
          JoinWork += Have.join(S, PhiFor, IsCoarse);
          return;
        }
      Set.push_back(std::move(S));
      if (Set.size() > MaxPartitions) {
        // Too many: first, a state reached under other outcomes as well
        // keeps only what all its paths assumed (they chose nothing it
        // holds; a later test splits them again where it matters), and
        // outcomes no edge from here tests again are forgotten. Neither
        // keeps apart what a later branch needs.
        const std::vector<VarId> &Live = testedFrom(Id, Block);
        StateSet Kept;
        for (StreamState &Have : Set) {
          llvm::erase_if(Have.Assumed, [&](const Assumption &A) {
            return !A.PerIteration &&
                   !std::binary_search(Live.begin(), Live.end(), A.Var);
          });
          auto Same = llvm::find_if(Kept, [&](const StreamState &K) {
            return K.sameBesidesAssumed(Have);
          });
          if (Same != Kept.end())
            llvm::erase_if(Same->Assumed, [&](const Assumption &A) {
              return !llvm::is_contained(Have.Assumed, A);
            });
          else
            Kept.push_back(std::move(Have));
        }
        Set = std::move(Kept);
        Regroup(Set, IsCoarse);
      }
      if (Set.size() > MaxPartitions)
        ++R.PathBoundHits;
      while (Set.size() > MaxPartitions) {
        // Then the outcomes of one variable at a time are forgotten until
        // the states fit (forgetVar). The tests of a loop counter that hold
        // for one iteration are kept (they end a path at the next step).
        VarId Oldest = forgetVar(Set);
        if (Oldest == NoVar)
          break;
        for (StreamState &Have : Set)
          llvm::erase_if(Have.Assumed, [&](const Assumption &A) {
            return !A.PerIteration && A.Var == Oldest;
          });
        Regroup(Set, IsCoarse);
      }
    };
    auto InputOf = [&](unsigned Block) {
      StateSet Set;
      bool IsCoarse = Coarse(Block);
      if (Block == B.Entry)
        Add(Set, Entry, IsCoarse, Block);
      for (unsigned P : B.Blocks[Block].Preds) {
        EdgeCondition C = edgeCondition(B.Blocks[P], Block);
        for (const StreamState &From : OutState[P]) {
          StreamState S = From;
          if (S.Reachable && llvm::all_of(C, [&](const Assumption &A) {
                return assume(S, A, T, C, R.PathBoundHits);
              })) {
            for (const Assumption &A : C)
              if (A.NoneTensor != NoVar)
                T.holdsNone(S, A.NoneTensor);
            Add(Set, std::move(S), IsCoarse, Block);
          }
        }
      }
      if (runsHelper(Id, Block))
        splitForHelpers(B.Blocks[Block], Set);
      return Set;
    };
    // Only the converged states are diagnosed: bodies run while this one
    // converges are not.
    bool Replay = std::exchange(InReplay, false);
    std::set<unsigned> Work = {O.Rank[B.Entry]};
    const unsigned Budget =
        R.BlockVisits + Limits.VisitsPerBlock * N + VisitSlack;
    while (!Work.empty()) {
      unsigned Block = O.Order[*Work.begin()];
      Work.erase(Work.begin());
      if (++R.BlockVisits > Budget || R.State == SolverResult::BudgetExceeded) {
        R.State = SolverResult::BudgetExceeded;
        InReplay = Replay;
        return StreamState();
      }
      StateSet NewIn = InputOf(Block);
      // A record covers what is in flight and a sync completes what was
      // covered, so a loop can otherwise swing between two states for ever.
      // The states form a finite lattice: growing only terminates.
      // Each partition grows on its own: what a loop's paths remember (`i <
      // n` failed: the last iteration) stays apart in a loop that needs many
      // visits to settle.
      if (Visited[Block] && ++Visits[Block] > GrowOnlyAfterVisits) {
        StateSet Grown;
        for (const StreamState &S : In[Block])
          Add(Grown, S, /*IsCoarse=*/true, Block);
        for (StreamState &S : NewIn)
          Add(Grown, std::move(S), /*IsCoarse=*/true, Block);
        NewIn = std::move(Grown);
      }
      // Work, not only visits: the entries joins and sweeps touched (states
      // share what did not change, so this is what a visit costs).
      R.StateWork += 1 + NewIn.size() * B.Blocks[Block].Facts.size() +
                     std::exchange(JoinWork, 0) + T.takeWork();
      if (R.StateWork > Limits.MaxStateWork) {
        R.State = SolverResult::BudgetExceeded;
        InReplay = Replay;
        return StreamState();
      }
      if (Visited[Block] && NewIn == In[Block])
        continue;
      Visited[Block] = 1;
      StateSet Out = NewIn;
      In[Block] = std::move(NewIn);
      for (StreamState &S : Out) {
        for (const Fact &F : B.Blocks[Block].Facts)
          T.apply(F, S);
        T.collectGarbage(S);
      }
      if (Out == OutState[Block] && !OutState[Block].empty())
        continue;
      OutState[Block] = std::move(Out);
      for (unsigned Succ : B.Blocks[Block].Succs)
        if (O.Rank[Succ] != ~0u)
          Work.insert(O.Rank[Succ]);
    }
    if (Replay) {
      InReplay = true;
      diagnose(B, O, In, Visited);
    }
    InReplay = Replay;
    if (ExitPaths)
      for (unsigned P : B.Blocks[B.Exit].Preds)
        if (Visited[P])
          for (const StreamState &S : OutState[P])
            ExitPaths->push_back({P, S});
    return joinAll(In[B.Exit], PhiFor, /*Coarse=*/false);
  }

  /// The replay: each fact is checked against the converged state it sees.
  void diagnose(const Body &B, const BodyOrder &O,
                const std::vector<StateSet> &In,
                const std::vector<char> &Visited) {
    for (unsigned Block : O.Order) {
      if (!Visited[Block])
        continue;
      if (Limits.Dump && Depth == 0)
        llvm::errs() << " block B" << Block << "\n";
      // The paths kept apart at this block advance together, so a finding
      // can say what happens on the others.
      StateSet Paths = In[Block];
      for (const Fact &F : B.Blocks[Block].Facts) {
        size_t Known = Findings.size();
        for (const StreamState &S : Paths) {
          size_t Before = Findings.size();
          D.before(F, S, Paths);
          onPath(Before, S);
        }
        for (StreamState &S : Paths) {
          size_t Before = Findings.size();
          T.apply(F, S);
          onPath(Before, S);
          if (Limits.Dump && Depth == 0)
            T.dump(F, S, llvm::errs());
        }
        // Found in a helper run in place: reached through the outermost call.
        if (!CallStack.empty())
          for (size_t I = Known; I < Findings.size(); ++I)
            if (Findings[I].CallSite == NoSite)
              Findings[I].CallSite = CallStack.front();
      }
    }
  }

  /// The findings from \p Before on were found on the path of \p S: they
  /// say which way it took the branches it remembers (the first path's,
  /// for a finding reached in a helper run in place).
  void onPath(size_t Before, const StreamState &S) {
    for (size_t I = Before; I < Findings.size(); ++I)
      if (Findings[I].Path.empty())
        Findings[I].Path.assign(S.Assumed.begin(), S.Assumed.end());
  }

  /// A helper run in place from \p B that tests a never-changing value
  /// the paths here have not (`if self.overlap: stream = self.comm`) would
  /// join its two outcomes at its exit: the paths are split on that value
  /// before the call instead (a case split, exact), while the bounds allow,
  /// so what the helper leaves on each stays apart in the caller.
  /// Whether block \p Block of body \p Id runs a helper in place (asked at
  /// every visit: read once per body).
  bool runsHelper(BodyId Id, unsigned Block) {
    auto [It, New] = RunsHelper.try_emplace(Id);
    if (New)
      for (const ::streamsafe::Block &B : IR.Bodies[Id].Blocks)
        It->second.push_back(llvm::any_of(B.Facts, [](const Fact &F) {
          const auto *X = F.as<fact::Spawn>();
          return X && X->InPlace;
        }));
    return It->second[Block];
  }

  void splitForHelpers(const Block &B, StateSet &Set) {
    for (const Fact &F : B.Facts) {
      const auto *X = F.as<fact::Spawn>();
      if (!X || !X->InPlace)
        continue;
      for (const auto &Outcomes : testedBy(X->Body, Depth)) {
        const Assumption &True = Outcomes.first, &False = Outcomes.second;
        StateSet Next;
        for (size_t I = 0; I < Set.size(); ++I) {
          StreamState &S = Set[I];
          bool Known = llvm::any_of(S.Assumed, [&](const Assumption &A) {
            return A.Var == True.Var;
          });
          // (Split, the paths would be those done, this one twice, and
          // those still to do.)
          size_t After = Next.size() + 2 + (Set.size() - I - 1);
          if (Known || !S.Reachable || S.Assumed.size() >= MaxAssumptions ||
              After > MaxPartitions) {
            Next.push_back(std::move(S));
            continue;
          }
          StreamState Other = S;
          for (auto [Into, A] : {std::pair{&S, True}, std::pair{&Other, False}})
            Into->Assumed.insert(
                llvm::lower_bound(Into->Assumed, A,
                                  [](const Assumption &L, const Assumption &R) {
                                    return L.Var < R.Var;
                                  }),
                A);
          Next.push_back(std::move(S));
          Next.push_back(std::move(Other));
        }
        Set = std::move(Next);
      }
    }
  }

  /// Runs a callable's body from \p Entry. While diagnosing, the body is
  /// diagnosed too (it runs from the spawner's converged state).
  StreamState runBody(BodyId Id, const StreamState &Entry, SiteId CallSite) {
    if (Id >= IR.Bodies.size())
      return StreamState();
    // Nested too deep to run: as code the analysis does not see, which may
    // synchronise, record or wait on anything (precision first).
    if (Depth >= MaxBodyNesting) {
      StreamState Exit = Entry;
      T.unseenBody(Exit);
      return Exit;
    }
    // A body has a budget of its own: its visits do not count against the
    // function that runs it.
    ++Depth;
    if (CallSite != NoSite)
      CallStack.push_back(CallSite);
    unsigned Before = R.BlockVisits;
    StreamState Exit = solveBody(Id, Entry, nullptr);
    R.NestedVisits += R.BlockVisits - Before;
    R.BlockVisits = Before;
    if (CallSite != NoSite)
      CallStack.pop_back();
    --Depth;
    return Exit;
  }

  const Function &IR;
  const SolverLimits &Limits;
  SolverResult &R;
  Transfer T;
  Diagnoser D;
  /// Replaying converged states: facts are diagnosed.
  bool InReplay = false;
  /// The calls of helpers being run in place, outermost first.
  std::vector<SiteId> CallStack;
  // A node-based map: solveBody keeps a reference to its body's order while
  // the bodies it runs in place add theirs (a DenseMap's growth moved the
  // entries and left that reference dangling: a crash on real code with
  // nested AT_DISPATCH lambdas, docs/realworld.md).
  std::map<BodyId, BodyOrder> Orders;
  std::map<BodyId, std::vector<std::pair<Assumption, Assumption>>> Tested;
  std::map<std::pair<BodyId, unsigned>, std::vector<VarId>> TestedFrom;
  std::map<BodyId, std::vector<char>> RunsHelper;
  unsigned Depth = 0;
};

} // namespace

SolverResult solve(const Function &IR, const SolverLimits &Limits) {
  SolverResult R;
  if (IR.Bodies.empty())
    return R;
  Solver S(IR, Limits, R);
  S.run();
  if (R.State == SolverResult::BudgetExceeded)
    return R;
  R.Findings = sortAndFold(IR, std::move(S.Findings));
  return R;
}

} // namespace streamsafe
