//===--- IRFixture.h - Hand-built fact IR for solver tests ------*- C++ -*-===//
//
// Builds an ir::Function the way a front end would, with no front end: its
// variables, its bodies (blocks of facts and edges) and one site per fact,
// named by a line number. Each fact method appends to a block and returns
// the fact's site; the line is all a test needs to name the site in a
// finding. Then solve() runs the solver (and its Diagnoser) exactly as
// lib/frontend/FunctionAnalysis.cpp and lib/python/Analysis.cpp do, and
// describe() writes a finding as one line of its sites (by line), variables
// and streams, every field that differs from its default.
//
//   IRFixture F;
//   VarId S = F.stream("s"), A = F.tensor("A");
//   BlockRef B = F.entry();
//   B.bindStream(2, S, poolStream(F.object()));
//   B.allocate(3, A, StreamRef::current());
//   B.write(4, A, StreamRef::var(S));
//   F.exit(B, 5);
//   EXPECT_EQ(F.findings(), ...);
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_TEST_UNIT_IRFIXTURE_H
#define STREAMSAFE_TEST_UNIT_IRFIXTURE_H

#include "lib/engine/Solver.h"
#include "lib/ir/Findings.h"
#include "lib/ir/IR.h"
#include <string>
#include <vector>

namespace streamsafe {
namespace test {

/// Stream operands StreamRef has no named constructor for.
inline StreamRef poolStream(ObjectId O) { return {StreamRef::Pool, O, NoVar}; }
inline StreamRef createdStream(ObjectId O) {
  return {StreamRef::Created, O, NoVar};
}
inline StreamRef otherStream(ObjectId O, VarId Named = NoVar) {
  return {StreamRef::Other, O, Named};
}

/// Branch conditions: the edge is taken when \p V is truthy (or not).
inline Assumption whenTrue(VarId V) { return {V, true}; }
inline Assumption whenFalse(VarId V) { return {V, false}; }

class IRFixture;

/// A block of a body being built. Each method appends one fact (two for
/// allocate: the Allocate and the binding of its result) at a new site on
/// \p Line, and returns that site.
class BlockRef {
public:
  unsigned id() const { return Id; }
  BodyId body() const { return Body; }

  /// Any fact, at a site of the kind a front end would give it.
  SiteId add(unsigned Line, Fact::Op What);
  SiteId add(unsigned Line, SiteKind Kind, Fact::Op What);

  SiteId bindStream(unsigned Line, VarId V, StreamRef S);
  SiteId setCurrent(unsigned Line, StreamRef S);
  SiteId guardEnter(unsigned Line, VarId Guard, StreamRef S);
  SiteId guardExit(unsigned Line, VarId Guard);
  /// V = <a new tensor> allocated (and written) on \p S; \p Options gives
  /// the other fields (host, pinned, async, allocate-only).
  SiteId allocate(unsigned Line, VarId V, StreamRef S,
                  fact::Allocate Options = {});
  SiteId read(unsigned Line, VarId T, StreamRef S);
  SiteId write(unsigned Line, VarId T, StreamRef S);
  /// A copy_: the DMA writes \p T on \p S (non_blocking when \p Async).
  SiteId copyInto(unsigned Line, VarId T, StreamRef S, bool Async);
  SiteId escape(unsigned Line, VarId T);
  SiteId unbind(unsigned Line, VarId V);
  /// A fresh event (declared here).
  SiteId newEvent(unsigned Line, VarId E);
  SiteId record(unsigned Line, VarId E, StreamRef S);
  SiteId wait(unsigned Line, VarId E, StreamRef S);
  SiteId streamSync(unsigned Line, StreamRef S);
  SiteId recordStream(unsigned Line, VarId T, StreamRef S);
  SiteId hostRead(unsigned Line, VarId T);
  SiteId currentQuery(unsigned Line);
  /// Body \p B runs on a new thread (or, with \p InPlace, right here).
  SiteId spawn(unsigned Line, BodyId B, bool InPlace = false);
  SiteId captureBegin(unsigned Line, StreamRef S,
                      CaptureMode Mode = CaptureMode::Global);
  SiteId captureEnd(unsigned Line, StreamRef S);

private:
  friend class IRFixture;
  BlockRef(IRFixture &F, BodyId Body, unsigned Id)
      : F(&F), Body(Body), Id(Id) {}
  IRFixture *F;
  BodyId Body;
  unsigned Id;
};

class IRFixture {
public:
  /// A function whose entry site is on line 1, with its own body (0).
  explicit IRFixture(std::string Name = "f");

  //===-- Variables and objects ------------------------------------------===//
  VarId tensor(const std::string &Name) { return var(Name, VarClass::Tensor); }
  VarId stream(const std::string &Name) { return var(Name, VarClass::Stream); }
  VarId event(const std::string &Name) { return var(Name, VarClass::Event); }
  VarId guard(const std::string &Name) { return var(Name, VarClass::Guard); }
  /// A scalar (a bool flag, an int) the analysis does not follow, but a
  /// branch on it may say what it is (an Assumption).
  VarId scalar(const std::string &Name) { return var(Name, VarClass::Other); }
  VarId var(const std::string &Name, VarClass Class);
  /// A parameter declared on line 1 (its ParamReady site).
  VarId param(const std::string &Name, VarClass Class);
  ObjectId object() { return IR.newObject(); }

  //===-- Bodies, blocks and edges ---------------------------------------===//
  /// A callable's body (a thread body, a lambda): its own entry and exit.
  BodyId callable();
  /// The entry block of body \p B.
  BlockRef entry(BodyId B = 0);
  /// A new, empty block of body \p B.
  BlockRef block(BodyId B = 0);
  /// An edge taken under \p If (by default: unconditionally).
  void edge(BlockRef From, BlockRef To, Assumption If = {});
  /// \p From leaves its body at \p Line (a return, the closing brace):
  /// the edge to the body's exit, with the block's ExitSite.
  SiteId exit(BlockRef From, unsigned Line);

  SiteId site(SiteKind Kind, unsigned Line);
  Function &ir() { return IR; }
  const Function &ir() const { return IR; }

  //===-- Running the solver ---------------------------------------------===//
  /// solve() on the function, as the front ends call it.
  SolverResult solve(const SolverLimits &Limits = SolverLimits()) const;
  /// The findings of solve(), each as describe() writes it. A function the
  /// solver gave up on is one line saying so.
  std::vector<std::string> findings() const;
  /// One line: the kind, then every field of its struct that is not its
  /// default, sites by line ("UnsynchronizedAccess tensor=A storage=A
  /// access={read@9 pool 's2' set@8 current} prior={write@6 pool 's1' set@4
  /// current}"). Each field is written in the slot of its role: access= the
  /// finding's own site (the use, the wait, the set, the host access, the
  /// capture rule's call or work), prior= the site it pairs with (the race's
  /// other access, the allocation, the record on some paths, the copy, the
  /// fork) or the spawner's / capturing stream, related@ the other site it
  /// names (the spawn, the exit, the declaration, the last work, the
  /// record in the capture).
  std::string describe(const Finding &F) const;
  unsigned line(SiteId S) const { return IR.Sites[S].Line; }

private:
  friend class BlockRef;
  Block &at(BlockRef B) { return IR.Bodies[B.Body].Blocks[B.Id]; }
  std::string streamName(const StreamDesc &D) const;
  std::string info(FindingKind K, const AccessInfo &A) const;

  Function IR;
  unsigned SitesMade = 0;
};

} // namespace test
} // namespace streamsafe

#endif // STREAMSAFE_TEST_UNIT_IRFIXTURE_H
