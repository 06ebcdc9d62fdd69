//===--- Modules.h - Helpers in other modules of the project ----*- C++ -*-===//
//
// `from .utils import fill` and `import pkg.ops as ops` name defs of other
// files of the same project. The cache resolves such a name to its file
// under the project root (by default the nearest folder above the file
// that has no __init__.py: the folder the package hangs from), parses each
// module once per run, and hands the Builder the def, which then runs in
// place like a def of the analysed file (docs/python.md, "Helpers in other
// modules"). A module that cannot be read or parsed is code not seen.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_MODULES_H
#define STREAMSAFE_LIB_PYTHON_MODULES_H

#include "lib/python/HelperIndex.h"
#include "lib/python/Imports.h"
#include "lib/python/Scope.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <memory>
#include <string>

namespace streamsafe::py {

/// A module of the project, parsed: its file, imports, defs and scope.
struct ProjectModule {
  std::unique_ptr<SourceFile> F;
  std::unique_ptr<Imports> I;
  std::unique_ptr<HelperIndex> X;
  std::unique_ptr<Scope> S;
};

/// The offsets of \p Word as a whole identifier in \p Text.
std::vector<size_t> wordOffsets(llvm::StringRef Text, llvm::StringRef Word);

class ModuleCache {
public:
  /// \p Root: the project root ("" : the default, per file).
  /// \p DeviceModuleFunctions: as for the analysed files (Imports.h).
  ModuleCache(std::string Root, std::string DeviceModuleFunctions)
      : Root(std::move(Root)), DeviceModules(std::move(DeviceModuleFunctions)) {
  }

  /// The module-level def that \p Qualified (a name as Imports qualifies
  /// it: "pkg.ops.fill", ".utils.fill") names, seen from the file \p From;
  /// \p Module is then the def's module. Null: not a def of a module of
  /// the project (or of \p From itself).
  TSNode def(const SourceFile &From, llvm::StringRef Qualified,
             const ProjectModule *&Module);
  /// The module-level class \p Qualified names, as def() finds defs (null:
  /// none); \p Module is then the class's module.
  TSNode moduleClass(const SourceFile &From, llvm::StringRef Qualified,
                     const ProjectModule *&Module);
  /// The loaded module whose tree \p N is in (null: none).
  const ProjectModule *moduleOf(TSNode N) const;
  /// Whether some code of \p From's project calls a method named \p Name
  /// on an object other than its own (`x.name(`, not `self.name(` or
  /// `super().name(`): a method only its class calls is the class's
  /// helper (ProjectCalls.cpp).
  bool calledOnOthers(const SourceFile &From, llvm::StringRef Name);

  /// The .py files of \p From's project, as calledOnOthers reads them (at
  /// most MaxProjectFiles; hidden folders aside).
  const std::vector<std::string> &projectFiles(const SourceFile &From);
  /// The project root of \p From: as given, or the nearest folder above
  /// its file with no __init__.py.
  std::string rootOf(const SourceFile &From) const;
  /// The files of projectFiles(\p From) whose text has the word \p Name
  /// (once per root and name).
  const std::vector<std::string> &filesNaming(const SourceFile &From,
                                              llvm::StringRef Name);
  /// The module in the file \p Path if it is parsed already (null: not).
  const ProjectModule *loaded(const std::string &Path) const {
    auto It = Loaded.find(Path);
    return It == Loaded.end() ? nullptr : It->second.get();
  }
  /// The module in the file \p Path, parsed (null: not read or parsed).
  const ProjectModule *module(const std::string &Path) { return load(Path); }

  /// Files larger than this are not read as helpers' modules.
  static constexpr size_t MaxModuleBytes = 4 << 20;

private:
  /// The module file \p Dotted names from \p From ("" : none).
  std::string pathOf(const SourceFile &From, llvm::StringRef Dotted) const;
  const ProjectModule *load(const std::string &Path);
  /// def() (\p Class false) or moduleClass(), through the modules that
  /// re-export the name (at most MaxReexports).
  TSNode find(const SourceFile &From, llvm::StringRef Qualified, bool Class,
              const ProjectModule *&Module);
  /// The module of the project \p Qualified is a name in (not \p From
  /// itself), loaded; \p Name: the name in it.
  const ProjectModule *moduleNaming(const SourceFile &From,
                                    llvm::StringRef Qualified,
                                    llvm::StringRef &Name);

  std::string Root;
  std::string DeviceModules;
  /// By real path; null: could not be read or parsed.
  llvm::StringMap<std::unique_ptr<ProjectModule>> Loaded;
  /// The module file each importing file's module name resolves to ("":
  /// none), by "path\nname".
  llvm::StringMap<std::string> Named;
  /// By project root: its .py files.
  llvm::StringMap<std::vector<std::string>> Files;
  /// By "root\nname": filesNaming's answers.
  llvm::StringMap<std::vector<std::string>> Naming;
  /// By project root: the method names its files call on other objects.
  llvm::StringMap<llvm::StringSet<>> OthersCalls;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_MODULES_H
