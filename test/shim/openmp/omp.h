// The two OpenMP runtime calls ATen/ParallelOpenMP.h makes, for tests that
// parse LibTorch as a unit built with OpenMP (-D_OPENMP) when the compiler
// here ships no omp.h. Declarations only, with the OpenMP API's signatures.
#pragma once
extern "C" int omp_get_num_threads(void);
extern "C" int omp_get_thread_num(void);
