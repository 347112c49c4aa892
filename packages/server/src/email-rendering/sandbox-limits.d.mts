export declare const MAX_HTML_CHARS: number;
export declare const MAX_TEXT_CHARS: number;
export declare const MAX_SUBJECT_CHARS: number;
export declare const MAX_CATEGORY_CHARS: number;
export declare const MAX_ERROR_CHARS: number;
export declare function cutText(text: string, max?: number): string;
