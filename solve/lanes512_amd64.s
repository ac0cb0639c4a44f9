//go:build amd64 && !purego

#include "textflag.h"

// The AVX-512 forms of lanes_amd64.s's routines: the eight lanes are one
// vector. Each does the same operations in the same order as its AVX2 form
// (the same roundings: the values are the same to the last bit); they need
// AVX512F (useAVX512).

// The first option of a group into Z0, the max with another, and the
// group's probability times the max added to the sum Z2 (then the next
// probability).
#define FIRST5(r) VMOVUPD (BX)(r*8), Z0
#define MAXOF5(r) VMAXPD (BX)(r*8), Z0, Z0
#define ADDUP5 VBROADCASTSD (SI), Z1; VMULPD Z0, Z1, Z0; VADDPD Z0, Z2, Z2; ADDQ $8, SI
// Two offsets at once: the one at o into AX, the next into R9.
#define PAIR(o) MOVQ o(DI), R9; MOVL R9, AX; SHRQ $32, R9

// func sumLanesAVX512(hdr *int64, nb int, prob *float64, off *int32, k *float64, acc *[8]float64)
//
// sumLanesAVX2 with the eight lanes in one vector: one load an option.
TEXT ·sumLanesAVX512(SB), NOSPLIT, $0-48
	MOVQ hdr+0(FP), R12
	MOVQ nb+8(FP), R13
	MOVQ prob+16(FP), SI
	MOVQ off+24(FP), DI
	MOVQ k+32(FP), BX
	MOVQ acc+40(FP), R8
	VMOVUPD (R8), Z2

block:
	MOVQ (R12), DX
	MOVQ 8(R12), CX
	ADDQ $16, R12
	CMPQ DX, $1
	JEQ one
	CMPQ DX, $2
	JEQ two
	CMPQ DX, $3
	JEQ three
	CMPQ DX, $4
	JEQ four
	CMPQ DX, $5
	JEQ five
	CMPQ DX, $6
	JEQ six
	MOVQ DX, R11
	DECQ R11

gen:
	MOVLQSX (DI), AX
	FIRST5(AX)
	ADDQ $4, DI
	MOVQ R11, R10

genin:
	MOVLQSX (DI), AX
	MAXOF5(AX)
	ADDQ $4, DI
	DECQ R10
	JNZ genin
	ADDUP5
	DECQ CX
	JNZ gen
	JMP next

one:
	MOVLQSX (DI), AX
	VBROADCASTSD (SI), Z1
	VMULPD (BX)(AX*8), Z1, Z0
	VADDPD Z0, Z2, Z2
	ADDQ $4, DI
	ADDQ $8, SI
	DECQ CX
	JNZ one
	JMP next

two:
	PAIR(0)
	FIRST5(AX)
	MAXOF5(R9)
	ADDUP5
	ADDQ $8, DI
	DECQ CX
	JNZ two
	JMP next

three:
	PAIR(0)
	FIRST5(AX)
	MAXOF5(R9)
	MOVLQSX 8(DI), AX
	MAXOF5(AX)
	ADDUP5
	ADDQ $12, DI
	DECQ CX
	JNZ three
	JMP next

four:
	PAIR(0)
	FIRST5(AX)
	MAXOF5(R9)
	PAIR(8)
	MAXOF5(AX)
	MAXOF5(R9)
	ADDUP5
	ADDQ $16, DI
	DECQ CX
	JNZ four
	JMP next

five:
	PAIR(0)
	FIRST5(AX)
	MAXOF5(R9)
	PAIR(8)
	MAXOF5(AX)
	MAXOF5(R9)
	MOVLQSX 16(DI), AX
	MAXOF5(AX)
	ADDUP5
	ADDQ $20, DI
	DECQ CX
	JNZ five
	JMP next

six:
	PAIR(0)
	FIRST5(AX)
	MAXOF5(R9)
	PAIR(8)
	MAXOF5(AX)
	MAXOF5(R9)
	PAIR(16)
	MAXOF5(AX)
	MAXOF5(R9)
	ADDUP5
	ADDQ $24, DI
	DECQ CX
	JNZ six

next:
	DECQ R13
	JNZ block
	VMOVUPD Z2, (R8)
	VZEROUPPER
	RET


// func boundAllAVX512(bs *boundSet, dice int, kmax, qnext, bnext, bank, f *float64, cand, out *uint64)
//
// boundAllAVX2 with the eight lanes in one vector and the comparisons in
// mask registers.
TEXT ·boundAllAVX512(SB), NOSPLIT, $0-72
	MOVQ bs+0(FP), R12
	MOVQ dice+8(FP), R13
	MOVQ kmax+16(FP), BX
	MOVQ qnext+24(FP), R14
	MOVQ bnext+32(FP), AX
	MOVQ bank+40(FP), DX
	MOVQ f+48(FP), R11
	MOVQ cand+56(FP), R10
	MOVQ out+64(FP), R9
	VMOVUPD (AX), Z8
	VMOVUPD (DX), Z6
	MOVQ $0xfff0000000000000, AX
	VPBROADCASTQ AX, Z4
	VCMPPD $4, Z4, Z6, K2
	VMOVUPD (R11), Z12
	MOVQ $0x3d719799812dea11, AX
	VPBROADCASTQ AX, Z14
	MOVQ $1, CX

bnext:
	ADDQ $64, R14
	MOVQ (R10)(CX*8), R8
	VCMPPD $0, (R14), Z8, K2, K1
	KMOVW K1, AX
	ANDQ AX, R8
	JZ bstore
	MOVQ CX, AX
	SHLQ $5, AX
	MOVQ (R12)(AX*1), SI
	MOVQ 8(R12)(AX*1), DI
	MOVQ 16(R12)(AX*1), DX
	VBROADCASTSD 24(R12)(AX*1), Z1
	VMULPD Z12, Z1, Z2
	TESTQ DX, DX
	JZ bdone

bterm:
	MOVLQSX (DI), AX
	VBROADCASTSD (SI), Z1
	VMULPD (BX)(AX*8), Z1, Z0
	VADDPD Z0, Z2, Z2
	ADDQ $4, DI
	ADDQ $8, SI
	DECQ DX
	JNZ bterm

bdone:
	VADDPD Z14, Z2, Z2
	VCMPPD $0x12, Z6, Z2, K3
	KMOVW K3, AX
	ANDQ AX, R8

bstore:
	MOVQ R8, (R9)(CX*8)
	INCQ CX
	CMPQ CX, R13
	JLE bnext
	VZEROUPPER
	RET
