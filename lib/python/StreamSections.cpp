//===--- StreamSections.cpp - Methods that open and close a section -------===//
//
// As in C++ (lib/frontend/StreamSections.cpp): `begin()` saves the current
// stream in `self.saved` and sets another, `end()` sets `self.saved` back.
// The opener's stream is the section's, not reported inside it; setting the
// saved attribute back is a restore. A caller that opens the section and
// does not close it on some path runs both in place and is reported.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/HelperIndex.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

const HelperIndex::ClassSections &HelperIndex::sections(TSNode Class) {
  auto [It, New] = Sections.try_emplace(Class.id);
  if (!New)
    return It->second;
  ClassSections &C = It->second;
  for (TSNode M : children(field(Class, "body"))) {
    TSNode Def = is(M, "decorated_definition") ? field(M, "definition") : M;
    if (!is(Def, "function_definition"))
      continue;
    std::vector<std::string> Params = paramNames(Def, F);
    if (Params.empty())
      continue;
    // `self.x` of this method's self: its attribute name, else empty.
    auto Attr = [&](TSNode N) -> std::string {
      N = unparen(N);
      if (!is(N, "attribute") || !is(field(N, "object"), "identifier") ||
          F.text(field(N, "object")) != Params[0])
        return {};
      return F.text(field(N, "attribute")).str();
    };
    MethodSections &MS = C.Methods[Def.id];
    ownCode(field(Def, "body"), [&](TSNode X) {
      if (is(X, "assignment")) {
        std::string A = Attr(field(X, "left"));
        TSNode Right = field(X, "right");
        if (!A.empty() && !ts_node_is_null(Right) &&
            isCurrentStreamCall(Right, I)) {
          C.Saved.insert(A);
          MS.Saves.push_back(A);
        }
        return;
      }
      if (!is(X, "call") ||
          apiOf(I.qualify(field(X, "function"))) != PyApi::SetStream)
        return;
      std::vector<TSNode> Args = children(field(X, "arguments"));
      std::string A = Args.empty() ? std::string() : Attr(Args[0]);
      if (!A.empty())
        C.SetFrom.insert(A);
      MS.Sets.push_back(A);
    });
  }
  return C;
}

bool HelperIndex::opensSection(TSNode Def) {
  TSNode Class = classOf(Def);
  if (ts_node_is_null(Class))
    return false;
  const ClassSections &C = sections(Class);
  auto It = C.Methods.find(Def.id);
  if (It == C.Methods.end())
    return false;
  // It sets a stream other than a saved one ...
  if (llvm::none_of(It->second.Sets, [&](const std::string &A) {
        return A.empty() || !C.Saved.contains(A);
      }))
    return false;
  // ... after saving the current one where the class sets it back.
  return llvm::any_of(It->second.Saves, [&](const std::string &A) {
    return C.SetFrom.contains(A);
  });
}

bool HelperIndex::savedCurrent(TSNode Class, llvm::StringRef Attr) {
  return !ts_node_is_null(Class) && sections(Class).Saved.contains(Attr);
}

} // namespace streamsafe::py
