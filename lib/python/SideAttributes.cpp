//===--- SideAttributes.cpp - Stream attributes used as side streams ------===//
//
// An object often takes its side stream from whoever makes it:
//
//   def __init__(self, stream=None):
//       self.stream = stream
//   def fetch(self, index):
//       self.stream.wait_stream(torch.cuda.current_stream())
//       with torch.cuda.stream(self.stream):
//           ...
//
// When every write of the attribute is a parameter of `__init__` (or None),
// and the class both enters it as the current stream and calls a stream
// method on it (so it is a stream there, not None), the class uses it as a
// side stream: as for a stream parameter a def enters
// (SideParameters.cpp), a maker that hands it the current stream would
// make the waits and the switch pointless. It is then the object's own
// stream, distinct from the caller's current stream, and held across calls
// (StreamProof::SideAttribute).
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "lib/python/StreamContexts.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

const llvm::StringMap<SideStream> &HelperIndex::sideAttributes(TSNode Class) {
  auto [It, New] = SideAttributes.try_emplace(Class.id);
  if (!New)
    return It->second;
  std::vector<TSNode> Family = family(Class);
  auto InFamily = [&](TSNode C) {
    return llvm::any_of(Family, [&](TSNode X) { return ts_node_eq(X, C); });
  };
  // Per attribute: whether every write is one of __init__'s parameters or
  // None (and one is a parameter).
  llvm::StringSet<> Bad, Given, MayBeNone;
  for (const AttributeWrite &W : attributeWrites()) {
    if (!ts_node_is_null(W.Owner) && !InFamily(W.Owner))
      continue;
    if (W.K == AttributeWrite::SetattrOpaque)
      return It->second;
    TSNode V = unparen(W.Value);
    bool Param = W.K == AttributeWrite::Member && !ts_node_is_null(W.Def) &&
                 F.text(field(W.Def, "name")) == "__init__" &&
                 is(V, "identifier") &&
                 llvm::is_contained(paramNames(W.Def, F), F.text(V).str());
    if (Param) {
      Given.insert(W.Name);
      // `stream=None`: the maker may give none.
      for (TSNode P : children(field(W.Def, "parameters")))
        if ((is(P, "default_parameter") || is(P, "typed_default_parameter")) &&
            F.text(field(P, "name")) == F.text(V) &&
            is(unparen(field(P, "value")), "none"))
          MayBeNone.insert(W.Name);
    } else if (W.Given == AttributeGiven::Nothing) {
      MayBeNone.insert(W.Name);
    } else {
      Bad.insert(W.Name);
    }
  }
  // Entered as the current stream, and given a stream method, by the
  // family's methods.
  llvm::StringMap<TSNode> Entered;
  llvm::StringSet<> StreamUse;
  // A test of whether it is None (`self.s is not None`, `self.s`), and
  // whether its true edge is the None one.
  llvm::StringMap<std::pair<TSNode, bool>> NoneTests;
  for (TSNode C : Family)
    for (TSNode M : methodsWithSelf(C, F)) {
      std::string Self = paramNames(M, F).front();
      ownCode(field(M, "body"), [&](TSNode X) {
        if (is(X, "if_statement")) {
          TSNode Cond = unparen(field(X, "condition"));
          bool Not = false;
          if (is(Cond, "not_operator")) {
            Not = true;
            Cond = unparen(field(Cond, "argument"));
          }
          TSNode Of = Cond;
          bool NoneWhenTrue = Not;
          if (is(Cond, "comparison_operator")) {
            std::vector<TSNode> Ops = children(Cond);
            if (Ops.size() != 2 || !is(Ops[1], "none"))
              return;
            Of = unparen(Ops[0]);
            llvm::StringRef Op = F.text(Cond).substr(ts_node_end_byte(Ops[0]) -
                                                     ts_node_start_byte(Cond));
            bool IsNot = Op.contains("not") || Op.contains("!=");
            NoneWhenTrue = IsNot == Not;
          }
          if (llvm::StringRef Attr; selfAttribute(Of, Self, F, Attr))
            NoneTests.try_emplace(Attr, field(X, "condition"), NoneWhenTrue);
          return;
        }
        if (!is(X, "call"))
          return;
        TSNode Fn = field(X, "function");
        std::vector<TSNode> A = children(field(X, "arguments"));
        llvm::StringRef Name;
        if (streamContextCall(X, F, I) && A.size() == 1 &&
            selfAttribute(A[0], Self, F, Name))
          Entered.try_emplace(Name, X);
        if (is(Fn, "attribute") &&
            selfAttribute(field(Fn, "object"), Self, F, Name) &&
            isStreamMethod(F.text(field(Fn, "attribute"))))
          StreamUse.insert(Name);
      });
    }
  for (const auto &E : Given) {
    llvm::StringRef Name = E.getKey();
    if (Bad.contains(Name) || !StreamUse.contains(Name) || !Entered.count(Name))
      continue;
    SideStream S;
    S.Entered = Entered.lookup(Name);
    // One that may be None is a side stream only on the paths where a
    // test of the class says it is not: without such a test, none.
    if (MayBeNone.contains(Name)) {
      auto T = NoneTests.find(Name);
      if (T == NoneTests.end())
        continue;
      S.NoneTest = T->second.first;
      S.NoneWhenTrue = T->second.second;
    }
    It->second[Name] = S;
  }
  return It->second;
}

} // namespace streamsafe::py
