//===--- FlagStreams.cpp - Stream attributes chosen by a flag -------------===//
//
// Real code chooses an object's stream by configuration, once, in
// __init__:
//
//   if self._overlap:                      self.h2d = (torch.cuda.Stream()
//       self._comm = torch.cuda.Stream()       if offload else
//   else:                                      torch.cuda.current_stream())
//       self._comm = torch.cuda.current_stream()
//
// The attribute is then a stream of the object's own when the flag (an
// attribute set only at construction, or a parameter of __init__ kept in
// one) is set, and anything else when it is not. A method that reads it
// starts on two paths, one per value of the flag, and the engine keeps them
// apart (docs/python.md, "Paths chosen by flags"): the race on the path
// where the flag is set is reported, and a test of the same flag in the
// method takes the path it took.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

namespace {

/// The if statement whose branch \p Statement is directly in, and whether
/// it is in the consequence (not the else).
TSNode branchOf(TSNode Statement, bool &Then) {
  TSNode Block = ts_node_parent(Statement);
  if (!is(Block, "block"))
    return {};
  TSNode P = ts_node_parent(Block);
  if (is(P, "if_statement") && ts_node_eq(field(P, "consequence"), Block)) {
    Then = true;
    return P;
  }
  if (is(P, "else_clause") && is(ts_node_parent(P), "if_statement")) {
    Then = false;
    return ts_node_parent(P);
  }
  return {};
}

} // namespace

std::optional<ChosenStream> HelperIndex::flagStream(TSNode Class,
                                                    llvm::StringRef Name) {
  auto [Memo, New] = FlagStreams.try_emplace({Class.id, Name.str()});
  if (!New)
    return Memo->second;
  return Memo->second = flagStreamUncached(Class, Name);
}

std::optional<ChosenStream>
HelperIndex::flagStreamUncached(TSNode Class, llvm::StringRef Name) {
  if (freshAttributes(Class).count(Name) || !setOnlyAtConstruction(Class, Name))
    return std::nullopt;
  // (A write in a method of a class outside the family is another class's
  // attribute; setOnlyAtConstruction above rules out every other write.)
  std::vector<TSNode> Family = family(Class);
  auto InFamily = [&](TSNode C) {
    return llvm::any_of(Family, [&](TSNode X) { return ts_node_eq(X, C); });
  };
  std::vector<const AttributeWrite *> Writes;
  for (const AttributeWrite &W : attributeWrites()) {
    if (W.K == AttributeWrite::SetattrOpaque)
      return std::nullopt;
    if (W.Name != Name ||
        ((W.K == AttributeWrite::ClassBody || W.K == AttributeWrite::Member) &&
         !ts_node_is_null(W.Owner) && !InFamily(W.Owner)))
      continue;
    Writes.push_back(&W);
  }
  // self.s = current_stream()  then  if cond: self.s = Stream()  (no else,
  // later in the same block): the default, overridden under the flag.
  if (Writes.size() == 2 && Writes[0]->K == AttributeWrite::Member &&
      Writes[1]->K == AttributeWrite::Member &&
      !ts_node_is_null(Writes[0]->Value) &&
      !ts_node_is_null(Writes[1]->Value)) {
    const AttributeWrite *Default = Writes[0], *Override = Writes[1];
    if (Default->Given == AttributeGiven::Fresh)
      std::swap(Default, Override);
    TSNode DefaultStmt = ts_node_parent(ts_node_parent(Default->Target));
    TSNode OverrideStmt = ts_node_parent(ts_node_parent(Override->Target));
    bool Then = false;
    TSNode If = is(OverrideStmt, "expression_statement")
                    ? branchOf(OverrideStmt, Then)
                    : TSNode{};
    if (Override->Given == AttributeGiven::Fresh &&
        Default->Given != AttributeGiven::Fresh &&
        is(DefaultStmt, "expression_statement") && !ts_node_is_null(If) &&
        Then && ts_node_is_null(field(If, "alternative")) &&
        ts_node_eq(ts_node_parent(If), ts_node_parent(DefaultStmt)) &&
        ts_node_start_byte(DefaultStmt) < ts_node_start_byte(If)) {
      ChosenStream C;
      C.Cond = field(If, "condition");
      C.FreshWhen = true;
      C.Creation = Override->Target;
      return C;
    }
  }
  {
    ChosenStream C;
    bool Ok = true;
    std::vector<std::pair<TSNode, bool>> Arms; // the if, the fresh arm
    for (const AttributeWrite *W : Writes) {
      if (W->K != AttributeWrite::Member || ts_node_is_null(W->Value)) {
        Ok = false;
        break;
      }
      TSNode V = unparen(W->Value);
      // self.s = Stream() if cond else current_stream()
      if (is(V, "conditional_expression")) {
        std::vector<TSNode> Parts = children(V);
        if (Parts.size() != 3) {
          Ok = false;
          break;
        }
        AttributeGiven A = attributeGiven(Parts[0]);
        AttributeGiven B = attributeGiven(Parts[2]);
        if ((A == AttributeGiven::Fresh) == (B == AttributeGiven::Fresh) ||
            !ts_node_is_null(C.Cond)) {
          Ok = false;
          break;
        }
        C.Cond = Parts[1];
        C.FreshWhen = A == AttributeGiven::Fresh;
        C.Creation = W->Target;
        continue;
      }
      // if cond: self.s = Stream()  else: self.s = current_stream()
      TSNode Stmt = ts_node_parent(ts_node_parent(W->Target));
      bool Then = false;
      TSNode If =
          is(Stmt, "expression_statement") ? branchOf(Stmt, Then) : TSNode{};
      if (ts_node_is_null(If) || ts_node_is_null(field(If, "alternative"))) {
        Ok = false;
        break;
      }
      // No elif: the else is the condition's other edge.
      for (TSNode Alt : fieldChildren(If, "alternative"))
        Ok &= is(Alt, "else_clause");
      bool Fresh = W->Given == AttributeGiven::Fresh;
      if (Fresh) {
        C.Creation = W->Target;
        C.FreshWhen = Then;
      }
      Arms.push_back({If, Fresh == Then});
    }
    if (!Ok)
      return std::nullopt;
    if (!Arms.empty()) {
      // Both arms of one if: the fresh one and the other.
      if (!ts_node_is_null(C.Cond) || Arms.size() != 2 ||
          !ts_node_eq(Arms[0].first, Arms[1].first) ||
          Arms[0].second != Arms[1].second || ts_node_is_null(C.Creation))
        return std::nullopt;
      C.Cond = field(Arms[0].first, "condition");
    }
    if (ts_node_is_null(C.Cond) || ts_node_is_null(C.Creation))
      return std::nullopt;
    return C;
  }
}

void Builder::chooseFlagStreams(
    const std::vector<std::pair<VarId, ChosenStream>> &Chosen) {
  for (const auto &Each : Chosen) {
    VarId Var = Each.first;
    const ChosenStream &C = Each.second;
    // On the flag's other edge the attribute is what __init__ gave it
    // there: a stream the analysis does not follow.
    auto Other = [&] {
      emit(site(SiteKind::Other, C.Cond),
           fact::BindStream{Var, StreamRef::unknown()});
    };
    auto Nothing = [] {};
    if (!whenTrue(C.Cond))
      Other(); // a condition not tracked: unknown on every path
    else if (C.FreshWhen)
      branchOn(C.Cond, Nothing, Other);
    else
      branchOn(C.Cond, Other, Nothing);
  }
}

} // namespace streamsafe::py
