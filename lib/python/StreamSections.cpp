//===--- StreamSections.cpp - Methods that open and close a section -------===//
//
// Reads a class's methods into the section rule (lib/lower/StreamSections.h),
// as the C++ front end does: `begin()` saves the current stream in
// `self.saved` and sets another, `end()` sets `self.saved` back.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/HelperIndex.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

const lower::StreamSections &HelperIndex::sections(TSNode Class) {
  auto [It, New] = Sections.try_emplace(Class.id);
  if (!New)
    return It->second;
  lower::StreamSections &C = It->second;
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
    lower::SectionMethod MS;
    ownCode(field(Def, "body"), [&](TSNode X) {
      if (is(X, "assignment")) {
        std::string A = Attr(field(X, "left"));
        TSNode Right = field(X, "right");
        if (!A.empty() && !ts_node_is_null(Right) &&
            isCurrentStreamCall(Right, I))
          MS.Saves.push_back(A);
        return;
      }
      if (!is(X, "call") ||
          apiOf(I.qualify(field(X, "function"))) != PyApi::SetStream)
        return;
      std::vector<TSNode> Args = children(field(X, "arguments"));
      MS.Sets.push_back(Args.empty() ? std::string() : Attr(Args[0]));
    });
    C.add(Def.id, std::move(MS));
  }
  return C;
}

bool HelperIndex::opensSection(TSNode Def) {
  TSNode Class = classOf(Def);
  return !ts_node_is_null(Class) && sections(Class).opens(Def.id);
}

bool HelperIndex::savedCurrent(TSNode Class, llvm::StringRef Attr) {
  return !ts_node_is_null(Class) && sections(Class).savesCurrent(Attr);
}

} // namespace streamsafe::py
