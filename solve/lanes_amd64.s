//go:build amd64 && !purego

#include "textflag.h"

// func sumLanesAVX2(prob *float64, off *int32, ng, cnt int, k *float64, acc *[4]float64)
//
// For each of the ng groups: the lane-wise maximum of the cnt vectors of
// four values at k+off (off in float64s), times the group's probability,
// added to acc. Multiply, then add, in the order of the groups: the same
// roundings as sumLanesGo.
TEXT ·sumLanesAVX2(SB), NOSPLIT, $0-48
	MOVQ prob+0(FP), SI
	MOVQ off+8(FP), DI
	MOVQ ng+16(FP), CX
	MOVQ cnt+24(FP), DX
	MOVQ k+32(FP), BX
	MOVQ acc+40(FP), R8
	VMOVUPD (R8), Y2
	CMPQ DX, $1
	JEQ one
	CMPQ DX, $2
	JEQ two
	MOVQ DX, R11
	DECQ R11

gen:
	MOVLQSX (DI), AX
	VMOVUPD (BX)(AX*8), Y0
	ADDQ $4, DI
	MOVQ R11, R9

genin:
	MOVLQSX (DI), AX
	VMAXPD (BX)(AX*8), Y0, Y0
	ADDQ $4, DI
	DECQ R9
	JNZ genin
	VBROADCASTSD (SI), Y1
	VMULPD Y0, Y1, Y0
	VADDPD Y0, Y2, Y2
	ADDQ $8, SI
	DECQ CX
	JNZ gen
	JMP done

one:
	MOVLQSX (DI), AX
	VBROADCASTSD (SI), Y1
	VMULPD (BX)(AX*8), Y1, Y0
	VADDPD Y0, Y2, Y2
	ADDQ $4, DI
	ADDQ $8, SI
	DECQ CX
	JNZ one
	JMP done

two:
	MOVLQSX (DI), AX
	MOVLQSX 4(DI), R10
	VMOVUPD (BX)(AX*8), Y0
	VMAXPD (BX)(R10*8), Y0, Y0
	VBROADCASTSD (SI), Y1
	VMULPD Y0, Y1, Y0
	VADDPD Y0, Y2, Y2
	ADDQ $8, DI
	ADDQ $8, SI
	DECQ CX
	JNZ two

done:
	VMOVUPD Y2, (R8)
	VZEROUPPER
	RET

// func sumLanesDAVX2(prob *float64, off *int32, ng, cnt int, k, d *float64, acc, accD *[4]float64)
//
// sumLanesAVX2 with the derivative: the first option of most value in each
// lane is chosen (a later one only if strictly more), and its value in d,
// times the probability, is added to accD.
TEXT ·sumLanesDAVX2(SB), NOSPLIT, $0-64
	MOVQ prob+0(FP), SI
	MOVQ off+8(FP), DI
	MOVQ ng+16(FP), CX
	MOVQ cnt+24(FP), DX
	MOVQ k+32(FP), BX
	MOVQ d+40(FP), R12
	MOVQ acc+48(FP), R8
	MOVQ accD+56(FP), R13
	VMOVUPD (R8), Y2
	VMOVUPD (R13), Y3
	MOVQ DX, R11
	DECQ R11

dgen:
	MOVLQSX (DI), AX
	VMOVUPD (BX)(AX*8), Y0
	VMOVUPD (R12)(AX*8), Y4
	ADDQ $4, DI
	TESTQ R11, R11
	JZ dsum
	MOVQ R11, R9

dgenin:
	MOVLQSX (DI), AX
	VMOVUPD (BX)(AX*8), Y5
	VCMPPD $0x1e, Y0, Y5, Y6
	VBLENDVPD Y6, Y5, Y0, Y0
	VBLENDVPD Y6, (R12)(AX*8), Y4, Y4
	ADDQ $4, DI
	DECQ R9
	JNZ dgenin

dsum:
	VBROADCASTSD (SI), Y1
	VMULPD Y0, Y1, Y0
	VADDPD Y0, Y2, Y2
	VMULPD Y4, Y1, Y4
	VADDPD Y4, Y3, Y3
	ADDQ $8, SI
	DECQ CX
	JNZ dgen
	VMOVUPD Y2, (R8)
	VMOVUPD Y3, (R13)
	VZEROUPPER
	RET
