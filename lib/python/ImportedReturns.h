//===--- ImportedReturns.h - What imported defs return ---------*- C++ -*-===//
//
// `from .utils import flatten` names a def of another module of the
// project: `flat = flatten(params)` holds what that def returns, as a call
// of a def of the file does (ReturnClasses.h). The analysed file's module
// scope answers it for every scope of the file (attribute scans too),
// reading the def in its own module, once per name. Internal to
// lib/python.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_IMPORTEDRETURNS_H
#define STREAMSAFE_LIB_PYTHON_IMPORTEDRETURNS_H

#include "lib/python/Modules.h"

namespace streamsafe::py {

/// Makes \p Module, the module scope of \p F, answer what a call of a name
/// \p F imports from another module of the project returns (Scope::
/// Imported).
void answerImportedReturns(Scope &Module, const SourceFile &F, const Imports &I,
                           ModuleCache &Modules);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_IMPORTEDRETURNS_H
