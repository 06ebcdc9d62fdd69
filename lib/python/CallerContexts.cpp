//===--- CallerContexts.cpp - The stream every caller runs a def under ----===//

#include "lib/python/CallerContexts.h"
#include "lib/python/Api.h"
#include "lib/python/HelperIndex.h"
#include "lib/python/StreamContexts.h"
#include "lib/python/ThreadCalls.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace streamsafe::py {

namespace {

/// Methods Python or PyTorch call for the code, where no call names them.
bool calledForTheCode(llvm::StringRef Name) {
  return (Name.starts_with("__") && Name.ends_with("__")) ||
         Name == "forward" || Name == "backward" || Name == "run";
}

/// Whether \p Path, relative to the project root \p Root, is test code.
bool testCode(llvm::StringRef Path, llvm::StringRef Root) {
  llvm::StringRef Rel = Path;
  if (Rel.consume_front(Root))
    Rel = Rel.ltrim("/\\");
  for (auto It = llvm::sys::path::begin(Rel), End = llvm::sys::path::end(Rel);
       It != End; ++It)
    if (*It == "test" || *It == "tests")
      return true;
  llvm::StringRef Name = llvm::sys::path::filename(Rel);
  return Name.starts_with("test_") || Name.ends_with("_test.py") ||
         Name == "conftest.py";
}

/// A file of the project with what reading its code needs.
struct ProjectFile {
  const SourceFile *F = nullptr;
  const Imports *I = nullptr;
  HelperIndex *X = nullptr;
};

bool under(TSNode N, TSNode Top) {
  return ts_node_start_byte(N) >= ts_node_start_byte(Top) &&
         ts_node_end_byte(N) <= ts_node_end_byte(Top);
}

/// Whether \p Def's own code binds \p Name only to new streams
/// (`s = torch.cuda.Stream()`), and at least once.
bool freshLocal(TSNode Def, llvm::StringRef Name, const ProjectFile &P) {
  for (TSNode Param : children(field(Def, "parameters")))
    if (P.F->text(Param) == Name)
      return false;
  bool Fresh = false, Other = false;
  ownCode(field(Def, "body"), [&](TSNode X) {
    TSNode Target = {}, Value = {};
    if (is(X, "assignment") || is(X, "augmented_assignment")) {
      Target = unparen(field(X, "left"));
      Value = is(X, "assignment") ? unparen(field(X, "right")) : TSNode{};
    } else if (is(X, "for_statement")) {
      Target = unparen(field(X, "left"));
    } else if (is(X, "as_pattern_target")) {
      Target = X;
    }
    if (ts_node_is_null(Target) || !P.F->text(Target).contains(Name))
      return;
    if (!is(Target, "identifier")) {
      Other = true; // unpacked, or an alias of the with-item: not read
      return;
    }
    if (P.F->text(Target) != Name)
      return;
    bool New =
        is(Value, "call") &&
        apiOf(P.I->qualify(field(Value, "function"))) == PyApi::NewStream;
    (New ? Fresh : Other) = true;
  });
  return Fresh && !Other;
}

/// Whether \p Stream, a with-item's stream in \p Def, is one \p Def makes:
/// a local only given new streams, or `self.x` of an attribute its class
/// only ever gives fresh streams.
bool madeByCaller(TSNode Stream, TSNode Def, const ProjectFile &P) {
  Stream = unparen(Stream);
  if (is(Stream, "identifier"))
    return freshLocal(Def, P.F->text(Stream), P);
  std::vector<TSNode> Params = children(field(Def, "parameters"));
  TSNode Class = classOf(Def);
  llvm::StringRef Attr;
  return !Params.empty() && !ts_node_is_null(Class) &&
         is(Params[0], "identifier") &&
         selfAttribute(Stream, P.F->text(Params[0]), *P.F, Attr) &&
         P.X->freshAttributes(Class).count(Attr);
}

/// The first positional argument of \p Call (null: none).
TSNode firstArgument(TSNode Call) {
  for (TSNode A : children(field(Call, "arguments")))
    if (!is(A, "keyword_argument") && !is(A, "comment"))
      return A;
  return TSNode{};
}

/// Whether \p Attr, `self.name` in a method of a class other than
/// \p Class, names that class's own method \p Name.
bool ownMethodCall(const ProjectFile &P, TSNode Attr, llvm::StringRef Name,
                   TSNode Class) {
  TSNode Method = {};
  for (TSNode A = ts_node_parent(Attr); !ts_node_is_null(A);
       A = ts_node_parent(A))
    if (is(A, "function_definition")) {
      Method = A;
      break;
    }
  TSNode Own = ts_node_is_null(Method) ? TSNode{} : classOf(Method);
  if (ts_node_is_null(Own) || ts_node_eq(Own, Class))
    return false;
  std::vector<TSNode> Params = children(field(Method, "parameters"));
  TSNode Object = unparen(field(Attr, "object"));
  return !Params.empty() && is(Object, "identifier") &&
         P.F->text(Object) == P.F->text(Params[0]) &&
         !ts_node_is_null(methodOf(Own, Name, *P.F));
}

class Search {
public:
  Search(ModuleCache &Modules, ModuleCache &Parsed, const SourceFile &F,
         const Imports &I, HelperIndex &X)
      : Modules(Modules), Parsed(Parsed), Own{&F, &I, &X},
        Root(Modules.rootOf(F)) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(F.path(), Real))
      OwnPath = Real.str().str();
  }

  std::optional<CallersStream> of(TSNode Def, const ProjectFile &In,
                                  unsigned Depth);

private:
  enum class Outcome { Found, Unknown, Cycle };
  /// What the occurrence of a def's name at \p At of \p P says.
  Outcome occurrence(const ProjectFile &P, size_t At, TSNode Def,
                     const ProjectFile &In, unsigned Depth, unsigned &Sites,
                     std::optional<CallersStream> &Found);
  /// What the call \p Call of \p P says: under a stream its def made, or
  /// in a def run under one.
  Outcome call(const ProjectFile &P, TSNode Call, unsigned Depth,
               std::optional<CallersStream> &Found);
  /// The other files of the project that name \p Name (test code aside);
  /// the analysed file is read as the editor holds it.
  std::vector<std::string> files(llvm::StringRef Name);

  ModuleCache &Modules, &Parsed;
  ProjectFile Own;
  std::string Root, OwnPath;
  /// The defs whose callers are being looked for.
  std::vector<const void *> Stack;
};

std::vector<std::string> Search::files(llvm::StringRef Name) {
  std::vector<std::string> Out;
  for (const std::string &Path : Modules.filesNaming(*Own.F, Name)) {
    if (testCode(Path, Root))
      continue;
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(Path, Real) && Real.str() == OwnPath)
      continue;
    Out.push_back(Path);
  }
  return Out;
}

std::optional<CallersStream> Search::of(TSNode Def, const ProjectFile &In,
                                        unsigned Depth) {
  llvm::StringRef Name = In.F->text(field(Def, "name"));
  if (Depth > MaxCallerDepth || calledForTheCode(Name))
    return std::nullopt;
  Stack.push_back(Def.id);
  std::optional<CallersStream> Found;
  unsigned Sites = 0;
  bool Unknown = false;
  // Each file is parsed when its turn comes: the first use that leaves the
  // entry unknown ends the search.
  auto Scan = [&](const ProjectFile &P) {
    for (size_t At : wordOffsets(P.F->text(), Name))
      if (occurrence(P, At, Def, In, Depth, Sites, Found) == Outcome::Unknown)
        return false;
    return true;
  };
  // A name more files use than it may have call sites is too common to
  // follow: they are not parsed.
  std::vector<std::string> Others = files(Name);
  Unknown = Others.size() > MaxCallSites || !Scan(Own);
  for (const std::string &Path :
       Unknown ? std::vector<std::string>() : Others) {
    const ProjectModule *M = Modules.loaded(Path);
    if (!M)
      M = Parsed.module(Path);
    if (M && !Scan({M->F.get(), M->I.get(), M->X.get()})) {
      Unknown = true;
      break;
    }
  }
  Stack.pop_back();
  return Unknown ? std::nullopt : Found;
}

Search::Outcome Search::occurrence(const ProjectFile &P, size_t At, TSNode Def,
                                   const ProjectFile &In, unsigned Depth,
                                   unsigned &Sites,
                                   std::optional<CallersStream> &Found) {
  llvm::StringRef Name = In.F->text(field(Def, "name"));
  TSNode N =
      ts_node_descendant_for_byte_range(P.F->root(), At, At + Name.size());
  if (!is(N, "identifier"))
    return Outcome::Cycle; // a string, a comment: no use
  TSNode Parent = ts_node_parent(N);
  // Its definition, a keyword argument's name, an import: no use.
  if ((is(Parent, "function_definition") &&
       ts_node_eq(field(Parent, "name"), N)) ||
      (is(Parent, "keyword_argument") && ts_node_eq(field(Parent, "name"), N)))
    return Outcome::Cycle;
  for (TSNode A = Parent; !ts_node_is_null(A); A = ts_node_parent(A))
    if (is(A, "import_from_statement") || is(A, "import_statement"))
      return Outcome::Cycle;
  TSNode Callee = N;
  bool Attribute =
      is(Parent, "attribute") && ts_node_eq(field(Parent, "attribute"), N);
  // A method is named only as an attribute; a bare name is another def.
  TSNode Class = classOf(Def);
  if (!ts_node_is_null(Class) && !Attribute)
    return Outcome::Cycle;
  if (Attribute) {
    // `self.name(` in a class that defines its own `name`: that one runs.
    if (!ts_node_is_null(Class) && ownMethodCall(P, Parent, Name, Class))
      return Outcome::Cycle;
    Callee = Parent;
    Parent = ts_node_parent(Parent);
  }
  // Any use but a call hands the def on: it may run anywhere.
  if (!is(Parent, "call") || !ts_node_eq(field(Parent, "function"), Callee) ||
      ++Sites > MaxCallSites)
    return Outcome::Unknown;
  return call(P, Parent, Depth, Found);
}

Search::Outcome Search::call(const ProjectFile &P, TSNode Call, unsigned Depth,
                             std::optional<CallersStream> &Found) {
  TSNode Caller = {};
  TSNode With = {};
  for (TSNode A = ts_node_parent(Call); !ts_node_is_null(A);
       A = ts_node_parent(A)) {
    if (is(A, "lambda") || is(A, "class_definition"))
      return Outcome::Unknown; // runs where the lambda is called
    if (is(A, "function_definition")) {
      Caller = A;
      break;
    }
    if (is(A, "with_statement") && ts_node_is_null(With) &&
        under(Call, field(A, "body")))
      for (TSNode V : withValues(A))
        if (is(unparen(V), "call") && streamContextCall(unparen(V), *P.F, *P.I))
          With = V;
  }
  if (ts_node_is_null(Caller))
    return Outcome::Unknown; // module level: the default stream
  bool SetsStream = false;
  ownCode(field(Caller, "body"), [&](TSNode X) {
    SetsStream |= is(X, "call") &&
                  apiOf(P.I->qualify(field(X, "function"))) == PyApi::SetStream;
  });
  if (SetsStream)
    return Outcome::Unknown;
  if (!ts_node_is_null(With)) {
    if (!madeByCaller(firstArgument(unparen(With)), Caller, P))
      return Outcome::Unknown;
    if (!Found)
      Found = CallersStream{{P.F, With}, {{P.F, Call}}};
    return Outcome::Found;
  }
  if (llvm::is_contained(Stack, Caller.id))
    return Outcome::Cycle; // a recursive call: its callers decide
  std::optional<CallersStream> Outer = of(Caller, P, Depth + 1);
  if (!Outer)
    return Outcome::Unknown;
  if (!Found) {
    Outer->Calls.insert(Outer->Calls.begin(), {P.F, Call});
    Found = std::move(Outer);
  }
  return Outcome::Found;
}

} // namespace

std::optional<CallersStream>
callersStream(ModuleCache &Modules, ModuleCache &Parsed, const SourceFile &F,
              const Imports &I, HelperIndex &X, TSNode Def) {
  Search S(Modules, Parsed, F, I, X);
  return S.of(Def, {&F, &I, &X}, 0);
}

bool spawnsThreads(TSNode Def, const SourceFile &F, const Imports &I) {
  bool Spawns = false;
  everyNode(field(Def, "body"), [&](TSNode X) {
    if (Spawns || !is(X, "call"))
      return;
    Spawns = threadCallRow(X, F, I) != nullptr;
  });
  return Spawns;
}

void noteCallersStream(LoweredFunction &L, const SourceFile &F,
                       const CallersStream &C) {
  // Sites in the callers' files: scope numbers above any helper's (0: the
  // analysed file).
  constexpr unsigned CallerScopes = 1u << 20;
  auto SiteIn = [&](const ProjectNode &P, SiteKind K) {
    unsigned Scope = P.F == &F ? 0 : CallerScopes;
    for (const auto &[Number, File] : L.ScopeFiles)
      if (File == P.F)
        Scope = Number;
    if (Scope == CallerScopes) {
      while (L.ScopeFiles.count(Scope))
        ++Scope;
      L.ScopeFiles[Scope] = P.F;
    }
    Site S;
    S.Kind = K;
    S.Line = start(P.N).Line;
    S.Loc = packLoc(start(P.N));
    S.Scope = Scope;
    return L.IR->Sites.add(S);
  };
  for (const ProjectNode &Call : C.Calls) {
    SiteId At = SiteIn(Call, SiteKind::Other);
    TSNode Fn = field(Call.N, "function");
    if (is(Fn, "attribute"))
      Fn = field(Fn, "attribute");
    L.Callees[At] = Call.F->text(Fn).str();
    L.IR->EntrySideCalls.push_back(At);
  }
  L.IR->EntrySideSetAt = SiteIn(C.SetAt, SiteKind::GuardEnter);
}

} // namespace streamsafe::py
