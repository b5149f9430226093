export { videoFeature, VIDEO_ATTACHMENT, VIDEO_EXTENSION, VIDEO_STEPS_ATTACHMENT } from './feature.js';
export { videoSettings, VideoOptionSchema, type VideoMode, type VideoOption, type VideoSettings } from './options.js';
