//===--- SideParameters.cpp - Stream parameters used as side streams ------===//
//
// A stream parameter may be the caller's current stream, so work on it is
// not reported against work on the current stream. A def that itself
// treats the parameter as another stream says otherwise: it enters it
// (`with torch.cuda.stream(s):`, `torch.cuda.set_stream(s)`), makes it wait
// on the current stream or the current stream wait on it (`wait_stream`),
// or orders the two with an event (recorded on one, waited on by the
// other). Such a parameter is taken to differ from the caller's current
// stream at the entry (StreamProof::SideParameter), unless a caller in the
// file passes the current stream for it, the def rebinds it, or it has a
// default (a call may leave it out). The option SideStreamParameters
// (default true) turns this off, as for the C++ checks. docs/python.md,
// "Streams kept in objects, globals and parameters".
//
// The same holds of a local the def binds once to what code the analysis
// cannot read returns (`s = mgr.h2d_stream()`, `s = state.comm_stream`):
// the def's own use says it is another stream than the current one
// (StreamProof::SideLocal), unless what gave it may be the current stream
// or None as written (a getter of the project that returns
// `torch.cuda.current_stream()`).
//
//===----------------------------------------------------------------------===//

#include "lib/lower/SideParameters.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "lib/python/StreamContexts.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>
#include <map>

namespace streamsafe::py {

namespace {

using lower::StreamRole;
using lower::StreamUse;

/// An argument, its keyword's value for a keyword argument.
TSNode argValue(TSNode A) {
  A = unparen(A);
  return is(A, "keyword_argument") ? unparen(field(A, "value")) : A;
}

/// Reads \p Def's own code into the records of the shared rule
/// (lib/lower/SideParameters.h), for its parameter \p Name.
class SideUseReader {
public:
  SideUseReader(TSNode Def, llvm::StringRef Name, const Scope &S,
                const SourceFile &F, const Imports &I)
      : Def(Def), Name(Name), S(S), F(F), I(I) {}

  /// The records in source order (ownCode visits in no such order).
  std::vector<StreamUse> read() {
    ownCode(field(Def, "body"), [&](TSNode X) {
      if (is(X, "call"))
        call(X);
    });
    std::vector<size_t> Order(Uses.size());
    for (size_t K = 0; K < Order.size(); ++K)
      Order[K] = K;
    std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      return ts_node_start_byte(Nodes[A]) < ts_node_start_byte(Nodes[B]);
    });
    std::vector<StreamUse> Sorted;
    std::vector<TSNode> SortedNodes;
    for (size_t K : Order) {
      Sorted.push_back(Uses[K]);
      SortedNodes.push_back(Nodes[K]);
    }
    Nodes = std::move(SortedNodes);
    return Sorted;
  }

private:
  bool isParam(TSNode N) const {
    N = argValue(N);
    return is(N, "identifier") && F.text(N) == Name;
  }
  /// torch.cuda.current_stream(), or a name of the def bound only to it.
  bool isCurrent(TSNode N) const {
    N = argValue(N);
    if (isCurrentStreamCall(N, I))
      return true;
    if (!is(N, "identifier"))
      return false;
    auto B = S.Bindings.find(F.text(N));
    return B != S.Bindings.end() && !B->second.empty() &&
           llvm::all_of(B->second, [&](TSNode V) {
             return !ts_node_is_null(V) && isCurrentStreamCall(V, I);
           });
  }
  StreamRole role(TSNode N) const {
    if (isParam(N))
      return StreamRole::Parameter;
    return isCurrent(N) ? StreamRole::Current : StreamRole::Other;
  }
  /// Events by the text that names them (`ev`, `self.done`).
  uintptr_t eventKey(TSNode N) {
    return EventKeys
        .try_emplace(F.text(argValue(N)).str(), EventKeys.size() + 1)
        .first->second;
  }
  void add(StreamUse::Kind K, StreamRole R, TSNode At, uintptr_t Event = 0,
           StreamRole Awaited = StreamRole::Other) {
    StreamUse U;
    U.K = K;
    U.Stream = R;
    U.Awaited = Awaited;
    U.Event = Event;
    U.At = At.id;
    Uses.push_back(U);
    Nodes.push_back(At);
  }

  /// `streams[k]` of a list the def binds once to a literal that names
  /// the parameter (`streams = [torch.cuda.current_stream(), s]`): entering
  /// it enters the parameter on some runs (LoopCounters.cpp picks which).
  bool listHoldsParam(TSNode N) const {
    N = argValue(N);
    if (!is(N, "subscript") || !is(unparen(field(N, "value")), "identifier"))
      return false;
    auto B = S.Bindings.find(F.text(unparen(field(N, "value"))));
    if (B == S.Bindings.end() || B->second.size() != 1 ||
        ts_node_is_null(B->second[0]))
      return false;
    TSNode List = unparen(B->second[0]);
    return (is(List, "list") || is(List, "tuple")) &&
           llvm::any_of(children(List), [&](TSNode E) { return isParam(E); });
  }

  void call(TSNode N) {
    TSNode Fn = field(N, "function");
    std::vector<TSNode> A = children(field(N, "arguments"));
    PyApi Api = apiOf(I.qualify(Fn));
    if ((streamContextCall(N, F, I) || Api == PyApi::SetStream) && !A.empty()) {
      add(StreamUse::Enter,
          listHoldsParam(A[0]) ? StreamRole::Parameter : role(A[0]), N);
      return;
    }
    if (!is(Fn, "attribute"))
      return;
    TSNode Object = unparen(field(Fn, "object"));
    llvm::StringRef Method = F.text(field(Fn, "attribute"));
    StreamRole On = role(Object);
    TSNode Arg = A.empty() ? TSNode{} : A[0];
    // The model's stream and event methods: s.wait_stream(o),
    // s.record_event(e), s.wait_event(e), e.record(s), e.wait(s).
    ApiEffect OfStream = streamMethodEffect(Method);
    ApiEffect OfEvent = eventMethodEffect(Method);
    if (waitsForStream(Method)) {
      if (!ts_node_is_null(Arg))
        add(StreamUse::WaitStream, On, N, 0, role(Arg));
      return;
    }
    if ((OfStream == ApiEffect::EventRecord ||
         OfStream == ApiEffect::StreamWaitEvent) &&
        On != StreamRole::Other && !ts_node_is_null(Arg)) {
      add(OfStream == ApiEffect::EventRecord ? StreamUse::RecordEvent
                                             : StreamUse::WaitEvent,
          On, N, eventKey(Arg));
      return;
    }
    if (OfEvent != ApiEffect::EventRecord && OfEvent != ApiEffect::EventBlock)
      return;
    // An event's own record() or wait() with no stream: the current one,
    // unless a `with` may have made another current.
    StreamRole By =
        ts_node_is_null(Arg)
            ? (insideWith(N, Def) ? StreamRole::Other : StreamRole::Current)
            : role(Arg);
    add(OfEvent == ApiEffect::EventRecord ? StreamUse::RecordEvent
                                          : StreamUse::WaitEvent,
        By, N, eventKey(Object));
  }

  TSNode Def;
  llvm::StringRef Name;
  const Scope &S;
  const SourceFile &F;
  const Imports &I;
  std::map<std::string, uintptr_t> EventKeys;
  std::vector<StreamUse> Uses;

public:
  /// The node of each record, in the same order.
  std::vector<TSNode> Nodes;
};

/// Whether \p Arg, at a call in the file, is the current stream: the call
/// itself, or a name that its def, an enclosing def or the module binds to
/// it (any of them: the one the name resolves to is not asked).
bool currentAt(TSNode Arg, const SourceFile &F, const Imports &I) {
  Arg = argValue(Arg);
  if (isCurrentStreamCall(Arg, I))
    return true;
  if (!is(Arg, "identifier"))
    return false;
  bool Current = false;
  auto BoundInBody = [&](TSNode Body) {
    ownCode(Body, [&](TSNode X) {
      bool Assign = is(X, "assignment");
      if (!Assign && !is(X, "named_expression"))
        return;
      TSNode Left = unparen(field(X, Assign ? "left" : "name"));
      TSNode Right = field(X, Assign ? "right" : "value");
      if (!is(Left, "identifier") || F.text(Left) != F.text(Arg) ||
          ts_node_is_null(Right))
        return;
      TSNode V = unparen(Right);
      if (is(V, "conditional_expression"))
        for (TSNode C : children(V))
          Current |= isCurrentStreamCall(C, I);
      Current |= isCurrentStreamCall(V, I);
    });
  };
  for (TSNode S = ts_node_parent(Arg); !ts_node_is_null(S);
       S = ts_node_parent(S))
    if (is(S, "function_definition"))
      BoundInBody(field(S, "body"));
  BoundInBody(F.root());
  return Current;
}

} // namespace

bool HelperIndex::givenCurrentStream(TSNode Def, unsigned Index) {
  std::vector<std::string> Params = paramNames(Def, F);
  if (Index >= Params.size())
    return false;
  llvm::StringRef DefName = F.text(field(Def, "name"));
  bool Method = !ts_node_is_null(classOf(Def));
  bool Given = false;
  std::vector<TSNode> Work{F.root()};
  while (!Work.empty() && !Given) {
    TSNode N = Work.back();
    Work.pop_back();
    for (TSNode C : children(N))
      Work.push_back(C);
    if (!is(N, "call"))
      continue;
    TSNode Fn = field(N, "function");
    // f(...) of a def; x.m(...) of a method, on any object (x.m binds x),
    // or through the class (Cls.m(obj, ...), which does not).
    unsigned Skip = 0;
    if (is(Fn, "identifier") && F.text(Fn) == DefName) {
      Skip = 0;
    } else if (is(Fn, "attribute") &&
               F.text(field(Fn, "attribute")) == DefName) {
      TSNode Object = unparen(field(Fn, "object"));
      Skip = Method && !(is(Object, "identifier") &&
                         !ts_node_is_null(moduleClass(F.text(Object))))
                 ? 1
                 : 0;
    } else {
      continue;
    }
    std::vector<TSNode> A = children(field(N, "arguments"));
    unsigned Position = 0;
    for (TSNode Arg : A) {
      if (is(Arg, "keyword_argument")) {
        Given |=
            F.text(field(Arg, "name")) == Params[Index] && currentAt(Arg, F, I);
        continue;
      }
      if (is(Arg, "list_splat") || is(Arg, "dictionary_splat"))
        break;
      Given |= Position + Skip == Index && currentAt(Arg, F, I);
      ++Position;
    }
  }
  return Given;
}

void Builder::proveSideParameters(const Scope &S) {
  TSNode Def = S.Node;
  std::vector<std::string> Names = paramNames(Def, F);
  // Parameters that have a default may be left out: none is proven.
  llvm::StringSet<> Defaulted;
  for (TSNode P : children(field(Def, "parameters")))
    if (is(P, "default_parameter") || is(P, "typed_default_parameter"))
      Defaulted.insert(F.text(field(P, "name")));
  for (unsigned K = 0; K < Names.size(); ++K) {
    llvm::StringRef Name = Names[K];
    auto Owned = Vars.find({&S, Name.str()});
    if (Owned == Vars.end() || Owned->second == NoVar)
      continue;
    Variable &V = IR->Vars[Owned->second];
    if (V.Class != VarClass::Stream)
      continue;
    SideUseReader Reader(Def, Name, S, F, I);
    std::vector<StreamUse> Uses = Reader.read();
    lower::ParameterFacts Facts;
    Facts.Defaulted = Defaulted.contains(Name);
    Facts.Rebound = S.Bindings.count(Name) || S.Elements.count(Name);
    const StreamUse *Found = lower::sideStreamUse(
        Uses, Facts, [&] { return X->givenCurrentStream(Def, K); });
    if (!Found)
      continue;
    TSNode Use = Reader.Nodes[Found - Uses.data()];
    V.Proof = StreamProof::SideParameter;
    V.ProvenAt =
        siteAt(SiteKind::StreamProven, start(Use), ts_node_start_byte(Use));
  }
}

namespace {

/// Whether \p Expr, as written, may give the current or the default
/// stream, or None.
bool givesCurrentOrNone(TSNode Expr, const Imports &I) {
  bool Found = false;
  ownCode(Expr, [&](TSNode X) {
    Found |= is(X, "none") || isCurrentStreamCall(X, I) ||
             (is(X, "call") &&
              apiOf(I.qualify(field(X, "function"))) == PyApi::DefaultStream);
  });
  return Found;
}

/// Whether a return of \p Def's own code may give the current or the
/// default stream, or None (a bare `return`, falling off its end).
bool mayReturnCurrentOrNone(TSNode Def, const Imports &I) {
  bool Found = false, Returns = false;
  ownCode(field(Def, "body"), [&](TSNode X) {
    if (!is(X, "return_statement"))
      return;
    Returns = true;
    TSNode V =
        ts_node_named_child_count(X) ? ts_node_named_child(X, 0) : TSNode{};
    Found |= ts_node_is_null(V) || givesCurrentOrNone(V, I);
  });
  return Found || !Returns;
}

} // namespace

bool Builder::sideLocal(VarId Var, TSNode Target) {
  if (!SideStreamParameters || !St || !is(Target, "identifier"))
    return false;
  auto [Known, New] = Memo.SideLocals.try_emplace(Var, false);
  if (!New)
    return Known->second;
  const Scope &S = *St->S;
  llvm::StringRef Name = F.text(Target);
  if (S.K != Scope::Def || S.owner(Name) != &S ||
      llvm::any_of(S.Params, [&](TSNode P) { return F.text(P) == Name; }) ||
      S.Elements.count(Name) || S.Augmented.count(Name))
    return false;
  // Bound once, to a call or to a field of something other than the
  // object (whose attributes have proofs of their own).
  auto B = S.Bindings.find(Name);
  if (B == S.Bindings.end() || B->second.size() != 1 ||
      ts_node_is_null(B->second[0]))
    return false;
  TSNode Given = unparen(B->second[0]);
  if (is(Given, "await"))
    Given = unparen(ts_node_named_child(Given, 0));
  bool Call = is(Given, "call");
  if (!Call && !is(Given, "attribute"))
    return false;
  TSNode Fn = Call ? unparen(field(Given, "function")) : Given;
  TSNode Base = Fn;
  while (is(Base, "attribute") || is(Base, "call") || is(Base, "subscript"))
    Base = unparen(is(Base, "attribute") ? field(Base, "object")
                   : is(Base, "call")    ? field(Base, "function")
                                         : field(Base, "value"));
  // The object's name: the first parameter of the method this def is, or
  // is nested in.
  llvm::StringRef Self;
  TSNode OwnMethod{};
  for (const Scope *M = &S; M && Self.empty(); M = M->Parent)
    if (M->K == Scope::Def && !ts_node_is_null(py::classOf(M->Node)) &&
        !M->Params.empty()) {
      Self = F.text(M->Params[0]);
      OwnMethod = M->Node;
    }
  if (!Call && is(Base, "identifier") && !Self.empty() && F.text(Base) == Self)
    return false;
  if (givesCurrentOrNone(Given, I))
    return false;
  // A def the analysis reads that may return the current stream or None.
  if (Call) {
    TSNode Callee{};
    if (std::optional<CalleeDef> C = calleeDef(Fn))
      Callee = C->Def;
    else if (is(Fn, "attribute")) {
      TSNode Object = unparen(field(Fn, "object"));
      llvm::StringRef Method = F.text(field(Fn, "attribute"));
      TSNode Class = is(Object, "identifier") && F.text(Object) == Self
                         ? py::classOf(OwnMethod)
                     : is(Object, "identifier") ? X->moduleClass(F.text(Object))
                                                : TSNode{};
      // Any def of that name, a classmethod or a property too.
      for (TSNode C :
           ts_node_is_null(Class) ? std::vector<TSNode>() : X->lineage(Class))
        for (TSNode M : children(field(C, "body"))) {
          TSNode Def =
              is(M, "decorated_definition") ? field(M, "definition") : M;
          if (ts_node_is_null(Callee) && is(Def, "function_definition") &&
              F.text(field(Def, "name")) == Method)
            Callee = Def;
        }
    }
    if (!ts_node_is_null(Callee) && mayReturnCurrentOrNone(Callee, I))
      return false;
  }
  SideUseReader Reader(S.Node, Name, S, F, I);
  std::vector<StreamUse> Uses = Reader.read();
  const StreamUse *Found =
      lower::sideStreamUse(Uses, lower::ParameterFacts(), [] { return false; });
  if (!Found)
    return false;
  TSNode Use = Reader.Nodes[Found - Uses.data()];
  Variable &V = IR->Vars[Var];
  V.Proof = StreamProof::SideLocal;
  V.ProvenAt =
      siteAt(SiteKind::StreamProven, start(Use), ts_node_start_byte(Use));
  return Known->second = true;
}

} // namespace streamsafe::py
