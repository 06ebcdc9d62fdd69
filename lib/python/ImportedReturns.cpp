//===--- ImportedReturns.cpp - What imported defs return ------------------===//

#include "lib/python/ImportedReturns.h"
#include "lib/python/ReturnClasses.h"
#include <memory>

namespace streamsafe::py {

void answerImportedReturns(Scope &Module, const SourceFile &F, const Imports &I,
                           ModuleCache &Modules) {
  auto Memo = std::make_shared<llvm::StringMap<VarClass>>();
  Module.Imported = [&F, &I, &Modules, Memo](llvm::StringRef Name) {
    if (auto It = Memo->find(Name); It != Memo->end())
      return It->second;
    VarClass C = VarClass::Other;
    std::string Qualified = I.importedAs(Name);
    const ProjectModule *M = nullptr;
    TSNode Def = Qualified.empty() ? TSNode{} : Modules.def(F, Qualified, M);
    // A module-level def that runs as written (a decorator may return
    // anything), read in its own module, its own methods not followed.
    if (!ts_node_is_null(Def) && M && ts_node_is_null(classOf(Def)) &&
        !decorated(Def))
      C = returnShapeOf(Def, *M->S, *M->F, *M->I, 0).Whole;
    (*Memo)[Name] = C;
    return C;
  };
}

} // namespace streamsafe::py
