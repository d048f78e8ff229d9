/** Examples from the paper (section 2.3), one click each: they set the inputs and the op. */
export interface Example {
  /** where in the paper */
  ref: string;
  title: string;
  op: string;
  layout: string;
  layout2?: string;
  arg?: string;
}

export const EXAMPLES: readonly Example[] = [
  { ref: 'Ex. 2.3.1.3', title: 'a nested layout', op: 'coalesce', layout: '(3,(3,2)):(3,(1,10))' },
  { ref: 'Ex. 2.3.1.4', title: 'a rank-2 layout of rank-2 modes', op: 'flatten', layout: '((2,2),(2,2)):((1,4),(2,8))' },
  { ref: 'Ex. 2.3.1.18', title: 'a degenerate stride', op: 'is_compact', layout: '((2,2),2):((3,0),10)' },
  { ref: 'Ex. 2.3.3.12', title: 'coalesce', op: 'coalesce', layout: '((2,2,2),(5,5)):((1,2,4),(10,50))' },
  {
    ref: 'Ex. 2.3.4.2',
    title: 'relative coalesce over S̄ = (4,(9,25))',
    op: 'coalesce',
    layout: '((2,2),((3,3),(5,5))):((1,2),((4,12),(36,180)))',
    arg: '(4,(9,25))',
  },
  { ref: 'Ex. 2.3.6.10', title: 'complement with N = 768', op: 'complement', layout: '((4,2),(2,2)):((3,24),(192,96))', arg: '768' },
  { ref: 'Ex. 2.3.6.13', title: 'complement with N = 16384', op: 'complement', layout: '((16,4),64):((8,1),128)', arg: '16384' },
  { ref: 'Ex. 2.3.7.5', title: 'composition B∘A', op: 'compose', layout: '(100):(7)', layout2: '(3,5):(10,2)' },
  { ref: 'Ex. 2.3.7.6', title: 'a composite that is not flat', op: 'compose', layout: '(2,2,6):(12,6,1)', layout2: '(4):(2)' },
  { ref: 'docs/semantics.md §5', title: 'composable though CuTe refuses', op: 'compose', layout: '(4,3):(1,10)', layout2: '2:3' },
  { ref: 'docs/semantics.md §5', title: 'not composable though CuTe answers', op: 'compose', layout: '(2,2):(1,10)', layout2: '(2,2):(1,1)' },
  { ref: 'Ex. 2.3.8.2', title: 'A ⊘ B, column-major tiles', op: 'logical_divide', layout: '(4,8):(1,4)', layout2: '(2,2):(1,4)' },
  { ref: 'Ex. 2.3.8.4', title: 'A ⊘ B, row-major tiles', op: 'logical_divide', layout: '(4,8):(1,4)', layout2: '(2,2):(4,1)' },
  { ref: 'Ex. 2.3.8.6', title: 'A ⊘ B, strided tiles', op: 'logical_divide', layout: '(4,8):(1,4)', layout2: '(2,4):(2,4)' },
  { ref: 'Ex. 2.3.8.7', title: 'A ⊘ B with B = 6:4', op: 'logical_divide', layout: '(4,6):(1,40)', layout2: '6:4' },
  { ref: 'Ex. 2.3.9.3', title: 'A ⊗ B', op: 'logical_product', layout: '(2,2):(5,10)', layout2: '(3,5):(5,1)' },
  { ref: 'Ex. 2.3.9.4', title: 'A ⊗ B, N not a multiple of the span', op: 'logical_product', layout: '(3,3):(6,1)', layout2: '(10,12):(24,2)' },
  { ref: 'docs/semantics.md §7', title: '(L1, L2) of tractable layouts, not tractable', op: 'is_tractable', layout: '(2,2):(3,2)' },
];
