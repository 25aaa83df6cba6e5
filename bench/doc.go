// Package bench holds edapply's benchmarks against GNU patch and git apply,
// on data that internal/gen generates; see bench_test.go and the README.
package bench
