//===--- CheckFilter.cpp - clang-tidy style check globs -------------------===//

#include "tools/py/CheckFilter.h"
#include "lib/report/CheckNames.h"

namespace streamsafe::py {

// '*' matches any run of characters.
static bool match(llvm::StringRef Pattern, llvm::StringRef Name) {
  if (Pattern.empty())
    return Name.empty();
  if (Pattern[0] == '*') {
    for (size_t K = 0; K <= Name.size(); ++K)
      if (match(Pattern.drop_front(), Name.drop_front(K)))
        return true;
    return false;
  }
  return !Name.empty() && Pattern[0] == Name[0] &&
         match(Pattern.drop_front(), Name.drop_front());
}

void CheckFilter::add(llvm::StringRef Spec) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Spec.split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    if (P.empty())
      continue;
    Glob G;
    G.Enable = !P.consume_front("-");
    G.Pattern = P.trim().str();
    Globs.push_back(G);
  }
}

bool CheckFilter::enabled(llvm::StringRef Check) const {
  bool On = false;
  for (const Glob &G : Globs)
    if (match(G.Pattern, Check))
      On = G.Enable;
  return On;
}

bool CheckFilter::unknownCheck(llvm::StringRef Glob) {
  if (Glob.contains('*') || !Glob.starts_with("streamsafe-"))
    return false;
  // A C++-only check is known (and never reports on Python).
  for (const report::CheckInfo &C : report::checks())
    if (Glob == C.Name)
      return false;
  return true;
}

std::vector<std::string> CheckFilter::unknownNames() const {
  std::vector<std::string> Out;
  for (const Glob &G : Globs)
    if (unknownCheck(G.Pattern))
      Out.push_back(G.Pattern);
  return Out;
}

const std::vector<std::string> &pythonChecks() {
  static const std::vector<std::string> Checks = [] {
    std::vector<std::string> C;
    for (const report::CheckInfo &E : report::checks())
      if (E.Engine)
        C.push_back(E.Name);
    return C;
  }();
  return Checks;
}

} // namespace streamsafe::py
