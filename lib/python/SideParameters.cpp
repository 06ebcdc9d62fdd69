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
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include <map>

namespace streamsafe::py {

namespace {

/// An argument, its keyword's value for a keyword argument.
TSNode argValue(TSNode A) {
  A = unparen(A);
  return is(A, "keyword_argument") ? unparen(field(A, "value")) : A;
}

/// Whether \p N is inside a `with` statement of \p Def (where the current
/// stream may be another one).
bool insideWith(TSNode N, TSNode Def) {
  for (TSNode P = ts_node_parent(N); !ts_node_is_null(P) && P.id != Def.id;
       P = ts_node_parent(P))
    if (is(P, "with_statement"))
      return true;
  return false;
}

/// The first place \p Def's own code uses its parameter \p Name as a stream
/// other than the current one (null: none).
class SideUse {
public:
  SideUse(TSNode Def, llvm::StringRef Name, const Scope &S, const SourceFile &F,
          const Imports &I)
      : Def(Def), Name(Name), S(S), F(F), I(I) {}

  TSNode find() {
    ownCode(field(Def, "body"), [&](TSNode X) {
      if (is(X, "call"))
        call(X);
    });
    // Ordered by an event: recorded on one of the two, waited on by the
    // other.
    for (const auto &E : Events) {
      const EventUse &U = E.second;
      if ((U.RecordCurrent && !ts_node_is_null(U.WaitParam)) ||
          (U.RecordParam && !ts_node_is_null(U.WaitCurrent)))
        found(!ts_node_is_null(U.WaitParam) && U.RecordCurrent ? U.WaitParam
                                                               : U.WaitCurrent);
    }
    return First;
  }

private:
  struct EventUse {
    bool RecordCurrent = false, RecordParam = false;
    TSNode WaitCurrent = {}, WaitParam = {};
  };

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
  void found(TSNode N) {
    if (ts_node_is_null(First) ||
        ts_node_start_byte(N) < ts_node_start_byte(First))
      First = N;
  }

  void call(TSNode N) {
    TSNode Fn = field(N, "function");
    std::vector<TSNode> A = children(field(N, "arguments"));
    PyApi Api = apiOf(I.qualify(Fn));
    if ((Api == PyApi::StreamContext || Api == PyApi::SetStream) &&
        !A.empty() && isParam(A[0])) {
      found(N);
      return;
    }
    if (!is(Fn, "attribute"))
      return;
    TSNode Object = unparen(field(Fn, "object"));
    llvm::StringRef Method = F.text(field(Fn, "attribute"));
    bool OnParam = isParam(Object), OnCurrent = isCurrent(Object);
    TSNode Arg = A.empty() ? TSNode{} : A[0];
    // The model's stream and event methods: s.wait_stream(o),
    // s.record_event(e), s.wait_event(e), e.record(s), e.wait(s).
    ApiEffect OfStream = streamMethodEffect(Method);
    ApiEffect OfEvent = eventMethodEffect(Method);
    if (waitsForStream(Method) && !ts_node_is_null(Arg) &&
        ((OnParam && isCurrent(Arg)) || (OnCurrent && isParam(Arg)))) {
      found(N);
      return;
    }
    // Events by the text that names them (`ev`, `self.done`).
    if ((OfStream == ApiEffect::EventRecord ||
         (OfStream == ApiEffect::StreamWaitEvent && !waitsForStream(Method))) &&
        (OnParam || OnCurrent) && !ts_node_is_null(Arg)) {
      EventUse &U = Events[F.text(argValue(Arg)).str()];
      if (OfStream == ApiEffect::EventRecord)
        (OnParam ? U.RecordParam : U.RecordCurrent) = true;
      else
        (OnParam ? U.WaitParam : U.WaitCurrent) = N;
      return;
    }
    if (OfEvent != ApiEffect::EventRecord && OfEvent != ApiEffect::EventBlock)
      return;
    bool Current = ts_node_is_null(Arg) ? !insideWith(N, Def) : isCurrent(Arg);
    bool Param = !ts_node_is_null(Arg) && isParam(Arg);
    if (!Current && !Param)
      return;
    EventUse &U = Events[F.text(Object).str()];
    if (OfEvent == ApiEffect::EventRecord)
      (Param ? U.RecordParam : U.RecordCurrent) = true;
    else
      (Param ? U.WaitParam : U.WaitCurrent) = N;
  }

  TSNode Def;
  llvm::StringRef Name;
  const Scope &S;
  const SourceFile &F;
  const Imports &I;
  std::map<std::string, EventUse> Events;
  TSNode First = {};
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
    if (V.Class != VarClass::Stream || Defaulted.contains(Name) ||
        S.Bindings.count(Name) || S.Elements.count(Name))
      continue;
    TSNode Use = SideUse(Def, Name, S, F, I).find();
    if (ts_node_is_null(Use) || X->givenCurrentStream(Def, K))
      continue;
    V.Proof = StreamProof::SideParameter;
    V.ProvenAt =
        siteAt(SiteKind::StreamProven, start(Use), ts_node_start_byte(Use));
  }
}

} // namespace streamsafe::py
