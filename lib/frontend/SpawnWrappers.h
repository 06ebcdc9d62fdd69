//===--- SpawnWrappers.h - A project's own thread spawners ------*- C++ -*-===//
//
// Projects hand work to threads through a function of their own:
// `void runAsync(std::function<void()> f) { at::launch(std::move(f)); }`,
// `template <class F> void submit(F &&f) { pool().run(std::forward<F>(f)); }`.
// A function of the translation unit whose body hands one of its own
// parameters, as it is (moved, forwarded, converted to std::function), to
// a thread spawner the model knows (std::thread, std::async, at::launch,
// c10::ThreadPool::run, a configured one, or another such wrapper) is a
// spawner too, recognised from its code: the callable a call of it is
// handed runs on another thread, as ThreadSpawnFunctions would say.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_SPAWNWRAPPERS_H
#define STREAMSAFE_LIB_FRONTEND_SPAWNWRAPPERS_H

namespace clang {
class FunctionDecl;
} // namespace clang

namespace streamsafe {

class ApiLookup;

/// Whether \p FD (with a body in the unit) hands one of its parameters to
/// a thread spawner. \p Table answers for the calls in its body.
bool spawnsParameter(const clang::FunctionDecl &FD, ApiLookup &Table);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_SPAWNWRAPPERS_H
