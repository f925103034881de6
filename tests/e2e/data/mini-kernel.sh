#!/bin/bash
# mini-kernel.sh DIR - writes and builds a tiny program laid out like a kernel
# tree in DIR (sources in DIR/src): DIR/src/vmlinux (executable, -pg -mfentry
# like the kernel) and DIR/src/mods/minimod.ko (relocatable object with a
# .modinfo). Used by the symbol-map e2e tests.
set -eu
d=$1/src
mkdir -p "$d/include/linux" "$d/net/ipv4" "$d/kernel/sched" "$d/init" "$d/mods"
cat >"$d/include/linux/mini.h" <<'H'
int tcp_like_send(int x);
struct ops { int (*pick_next)(int); };
H
cat >"$d/net/ipv4/tcpish.c" <<'C'
#include "../../include/linux/mini.h"
static __attribute__((noinline)) int helper(int x)
{
	return x * 5 + 1;
}
int tcp_like_send(int x)
{
	return helper(x) + 2;
}
C
cat >"$d/kernel/sched/fairish.c" <<'C'
#include "../../include/linux/mini.h"
static __attribute__((noinline)) int helper(int x)
{
	return x * 7 - 1;
}
int pick_next(int x)
{
	return helper(x) + tcp_like_send(x);
}
struct ops fair_ops = { .pick_next = pick_next };
C
cat >"$d/init/main.c" <<'C'
__asm__(".globl __fentry__\n__fentry__: ret");
__attribute__((used)) const char linux_banner[] = "Linux version 0.0.2-kmag-e2e (e2e@test) #1\n";
int pick_next(int x);
int main(int argc, char **argv)
{
	(void)argv;
	return pick_next(argc);
}
C
cat >"$d/kernel/minimod.c" <<'C'
__attribute__((section(".modinfo"), used, aligned(1)))
static const char modinfo[] = "name=minimod\0vermagic=0.0.2-kmag-e2e SMP";
int minimod_work(int x)
{
	return x ^ 0x5a;
}
C
cd "$d"
F="-g -O2 -pg -mfentry -fno-pie"
gcc $F -c -o tcpish.o net/ipv4/tcpish.c
gcc $F -c -o fairish.o kernel/sched/fairish.c
gcc -g -O2 -fno-pie -c -o main.o init/main.c
gcc -no-pie -o vmlinux main.o tcpish.o fairish.o
gcc $F -c -o mods/minimod.ko kernel/minimod.c
