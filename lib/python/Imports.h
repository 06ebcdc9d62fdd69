//===--- Imports.h - Names resolved through a module's imports --*- C++ -*-===//
//
// Python has no declarations: `torch.cuda.Stream` is whatever the names
// `torch` (and its attributes) are bound to when the line runs. The front
// end trusts the module's import statements and nothing else: a name bound
// by `import torch`, `import torch.cuda as tc` or `from torch.cuda import
// Stream as S` resolves to its dotted path; a name bound otherwise (or bound
// twice, differently) does not resolve, and what does not resolve is not a
// stream API. Accelerator-neutral spellings resolve to the CUDA ones
// (lib/model/Accelerators.h): `torch.Stream` is torch.cuda.Stream, and a
// call that returns the device module (`torch.get_device_module()`, an
// option adds a project's own) is torch.cuda, as is a name assigned one.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_IMPORTS_H
#define STREAMSAFE_LIB_PYTHON_IMPORTS_H

#include "lib/python/Syntax.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <string>
#include <vector>

namespace streamsafe::py {

class Imports {
public:
  /// Reads every import statement of the file (module level and in
  /// functions: an import in a function binds the same module).
  /// \p DeviceModuleFunctions (';'-separated dotted names): calls that
  /// return the accelerator's module; such a call, and a name assigned
  /// one, stand for torch.cuda.
  Imports(const SourceFile &F, llvm::StringRef DeviceModuleFunctions = "");

  /// The dotted path \p N (an identifier or attribute chain) denotes, in
  /// canonical form ("torch.cuda.Stream"), or "" when it does not resolve.
  /// \p Shadowed: whether a name is bound by something else where \p N is.
  std::string qualify(TSNode N,
                      const llvm::StringSet<> *Shadowed = nullptr) const;

  /// What the file's imports bind \p Name to ("": nothing, or two
  /// different things): how a package's `__init__.py` re-exports a name
  /// (`from .store import Store`: ".store.Store").
  std::string importedAs(llvm::StringRef Name) const {
    return Alias.lookup(Name);
  }

  /// Lets qualify() resolve the nodes of \p Other's file through \p
  /// Other (a helper's module, lib/python/Modules.h).
  void link(const Imports &Other) const;

private:
  void add(llvm::StringRef Name, std::string Path);
  /// The function \p V (an assignment's value) names, as qualify() spells
  /// it: a dotted name, or both arms of a conditional naming one ("": any
  /// other value).
  std::string functionReference(TSNode V) const;
  void read(TSNode N);

  const SourceFile &F;
  llvm::StringMap<std::string> Alias;
  /// Attributes every assignment in the file gives one function
  /// (`self.ctx = torch.cuda.stream`), by attribute name ("": not so).
  llvm::StringMap<std::string> AttributeAlias;
  llvm::StringSet<> DeviceModules;
  mutable std::vector<const Imports *> Linked;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_IMPORTS_H
